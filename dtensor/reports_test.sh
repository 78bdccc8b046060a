#!/bin/bash
# dtensor/reports/ is current: tools/dtensor/upstream_report.py --check.
# Usage: reports_test.sh UPSTREAM_REPORT
exec "$1" --check
