#!/bin/bash
# Runs tools/dtensor/verify_fixes.py on every fix in dtensor/fixes/.
# Usage: fixes_test.sh VERIFY_FIXES
exec "$1"
