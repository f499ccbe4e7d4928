"""The official examples begin from nothing: they call aclInit and aclrtSetDevice themselves."""
import pytest


@pytest.fixture
def acl(bare_acl):
    return bare_acl
