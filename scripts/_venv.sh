# Sourced by scripts/test and scripts/bench: build a fresh virtual environment from this
# project's files (never the machine's global packages), with the test extra (which brings the
# reference calculator PyMahjongGB, compiled from source: it needs g++ and the Python headers),
# at the exact versions of constraints.txt.
fresh_venv() {
    local venv="$1"
    if ! command -v g++ >/dev/null 2>&1 || ! python3 -c 'import sysconfig,os,sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        if command -v apt-get >/dev/null 2>&1; then
            apt-get -o DPkg::Lock::Timeout=600 update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq g++ python3-dev python3-venv >/dev/null
        fi
    fi
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
    "$venv/bin/python" -m pip install -q -c constraints.txt -e '.[test]'
}
