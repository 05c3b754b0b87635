"""`python -m labwright.messages` prints the UI's catalogue module (ui/scripts/gen-api.mjs)."""

import sys

from labwright.messages import typescript

sys.stdout.write(typescript())
