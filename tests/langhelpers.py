"""Telling the languages apart in a message: Chinese characters, and English words a sentence
would need (API, parameter and enum names never count)."""
import re

CJK = re.compile(r"[\u4e00-\u9fff]")
#: words an English sentence cannot do without; API, parameter and enum names never are one
ENGLISH = {"a", "an", "the", "is", "are", "was", "were", "be", "been", "has", "have", "not",
           "no", "and", "or", "but", "of", "to", "in", "on", "at", "by", "with", "from", "for",
           "it", "its", "this", "that", "which", "can", "cannot", "must", "first", "again",
           "only", "use", "call", "never", "still", "already", "would"}


def english_words(text: str) -> set[str]:
    """Plain English words in ``text``: not part of a dotted name, a call or an identifier."""
    return {w for w in re.findall(r"(?<![\w.])[A-Za-z]+(?![\w.(])", text)
            if w.lower() in ENGLISH}
