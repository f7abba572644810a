#!/usr/bin/env bash
# Headless Chromium and its driver for the web page's end-to-end tests,
# from the system's packages, where they are missing. Prints the paths.
# Several tests call this at once: one installs under a lock while the
# others wait for it, and apt waits for a lock held by anything else.
set -euo pipefail
exec 9>"${TMPDIR:-/tmp}/dip-apt.lock"
flock -w 900 9
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if [ "$(id -u)" != 0 ]; then
        echo "chromium and chromedriver are missing: install the packages chromium and chromium-driver (as root)" >&2
        exit 1
    fi
    (apt-get -o DPkg::Lock::Timeout=600 update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium chromium-driver) >&2
fi
echo "$(command -v chromium) $(command -v chromedriver)"
