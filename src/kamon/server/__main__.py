"""`python -m kamon.server`: the web server with every flag of `kamon serve`."""

from kamon.server.run import main

if __name__ == "__main__":
    raise SystemExit(main())
