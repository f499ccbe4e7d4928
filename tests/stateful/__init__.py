"""Random sequences of the whole pyACL-shaped API, checked against an independent model of
ACL (tests/stateful/test_random_api_sequences.py runs them).

- ``model/``          ACL by the rules, readable on its own: what each call must return and
                      what it changes, with a shadow copy of every byte written;
- ``machine.py``      the hypothesis state machine: draws each call's arguments, makes the
                      call, and holds the runtime to the model's verdict;
- ``sandbox.py``      rules that check the sandbox promise beside the model;
- ``checks.py``       the whole state compared with the model after every step;
- ``preconditions.py`` when rules may run; ``tally.py`` the counts the test prints.
"""
