#!/bin/sh
# Installs headless Chromium and chromedriver for the games-cli browser test (serve_browser)
# when /usr/bin/chromium is missing. CI runs as root and reaches Debian's packages.
set -eu
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "install-browser: chromium and chromedriver already present"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-browser: need root to apt-get install chromium chromium-driver" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends chromium chromium-driver
/usr/bin/chromium --version
