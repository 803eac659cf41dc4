#!/usr/bin/env bash
# Debian's Chromium for the e2e tier (Playwright drives it; it never downloads a browser of its own).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q chromium >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q chromium >/dev/null; }
command -v chromium >/dev/null
