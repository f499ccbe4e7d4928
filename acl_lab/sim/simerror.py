"""SimError: how the simulator refuses a call (before it changes any state)."""


class SimError(Exception):
    """A rule was broken. ``code`` is the ACL error code the facade returns; ``message``
    is what acl.get_recent_err_msg() tells the learner (rule, culprit, what to do)."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
