#!/usr/bin/env bash
# What the real-browser test (tests/site/test_browser.py) needs: Debian's Chromium and
# Playwright's Python package, pointed at /usr/bin/chromium. Never `playwright install`:
# it downloads browser builds, which cannot be fetched here.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq chromium >/dev/null
fi
python -c "import playwright" 2>/dev/null || pip install -q playwright
chromium --version
