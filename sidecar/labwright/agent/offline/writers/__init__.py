"""The writer half of each analysis kind: its text (every number through the
ledger), its figures (panels specs the plot worker draws) and its script
(the lines of the exported compendium that recompute it). One module per
kind; `agent/offline/kind_writers.py` registers them.
"""
