"""``python -m guobiao``: the ``guobiao`` command, for when its script is not on the PATH."""

from guobiao.cli import run

if __name__ == "__main__":
    run()
