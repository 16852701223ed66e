"""`python -m kamon.server`: `kamon serve`, with the same flags."""

from kamon.cli import main

if __name__ == "__main__":
    import sys
    sys.argv[1:1] = ["serve"]
    main()
