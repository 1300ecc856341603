"""Programs from examples: `Discovery` (the logic), presets, example parsing; the notebook widget is
`ncpu_nb.discover()` (ncpu_nb.views.discover) and the terminal REPL `ncpu-nb discover` (shell)."""
from ncpu_nb.discovery.discovery import Discovery, DiscoveryError, Summary
from ncpu_nb.discovery.examples import ExampleError, parse_example
from ncpu_nb.discovery.presets import PRESETS

__all__ = ["Discovery", "DiscoveryError", "Summary", "ExampleError", "parse_example", "PRESETS"]
