# Headless Chromium for the PDF score sheets and results tables (guobiao.tournament.reports):
# Debian's chromium package, and a CJK font (fonts-noto-cjk) so that the Chinese headings print
# as characters, not boxes, and fonts-wqy-zenhei, the TrueType CJK font the papers' CSS prefers
# (Chromium embeds it as CID TrueType; Noto Sans CJK comes out as Type 3 fonts, which some older
# printers handle badly), and poppler-utils (pdfinfo, pdftotext: the tests read the PDFs back).
# Installed with apt-get when missing (as root); nothing else changes.
#
# Sourced by scripts/test:   source scripts/chromium.sh; chromium_ensure
#   chromium_ensure exports GUOBIAO_CHROMIUM (the binary html_to_pdf runs); the PDF tests read
#   it, and fail under CI without it.
# Run directly:
#   bash scripts/chromium.sh            installs what is missing, prints GUOBIAO_CHROMIUM=...

CHROMIUM_BIN=/usr/bin/chromium

# apt-get install the given packages, non-interactively, waiting up to 10 minutes for another
# apt or dpkg to let go of its lock; `apt-get update` only when the package lists do not know
# them yet.
_chromium_apt_install() {
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "chromium.sh: cannot install $* (needs root and apt-get): apt-get install $*" >&2
        return 1
    fi
    local pkg
    for pkg in "$@"; do
        if ! apt-cache show "$pkg" >/dev/null 2>&1; then
            apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 || return 1
            break
        fi
    done
    echo "== installing $* (Debian packages, for the PDF reports)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null
}

# Whether a font with Chinese glyphs is installed.
_chromium_has_cjk_font() {
    if command -v fc-list >/dev/null 2>&1; then
        [ -n "$(fc-list :lang=zh 2>/dev/null)" ]
    else
        dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q 'ok installed'
    fi
}

# Whether the font family $1 is installed (fc-list; without it, whether package $2 is).
_chromium_has_font() {
    if command -v fc-list >/dev/null 2>&1; then
        fc-list : family | grep -qiF "$1"
    else
        dpkg-query -W -f='${Status}' "$2" 2>/dev/null | grep -q 'ok installed'
    fi
}

chromium_ensure() {
    if [ ! -x "$CHROMIUM_BIN" ]; then
        _chromium_apt_install chromium || return 1
        if [ ! -x "$CHROMIUM_BIN" ]; then
            echo "chromium.sh: the chromium package did not install $CHROMIUM_BIN" >&2
            return 1
        fi
    fi
    # A font with Chinese glyphs (Chromium falls back to it through fontconfig).
    if ! _chromium_has_cjk_font; then
        _chromium_apt_install fonts-noto-cjk ||
            echo "chromium.sh: no CJK font; the PDFs will show boxes for Chinese" >&2
    fi
    # WenQuanYi Zen Hei, first in the papers' font stack (guobiao.tournament.reports._CSS): a
    # TrueType font, so that no Type 3 font is left in the PDF (tests/test_papers_letter.py).
    if ! _chromium_has_font "WenQuanYi Zen Hei" fonts-wqy-zenhei; then
        _chromium_apt_install fonts-wqy-zenhei ||
            echo "chromium.sh: no WenQuanYi Zen Hei; Chinese prints as Type 3 fonts" >&2
    fi
    # pdfinfo and pdftotext, with which the tests read the PDFs back.
    if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1; then
        _chromium_apt_install poppler-utils || return 1
    fi
    export GUOBIAO_CHROMIUM="$CHROMIUM_BIN"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    chromium_ensure
    echo "GUOBIAO_CHROMIUM=$GUOBIAO_CHROMIUM"
fi
