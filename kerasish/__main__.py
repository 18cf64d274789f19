"""`python -m kerasish`: the command line (see `kerasish.cli`)."""
from kerasish.cli import run

if __name__ == "__main__":
    run()
