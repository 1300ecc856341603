import sys

from ncpu_nb.cli import main

sys.exit(main())
