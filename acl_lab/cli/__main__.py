"""python -m acl_lab.cli: the acl-lab command."""
import sys

from acl_lab.cli import main

sys.exit(main())
