#!/usr/bin/env python3
"""Regenerates the output blocks of README.md and of the guide (docs/guide/*.md) by running the real commands.

Each page is run on its own, in a fresh scratch directory, so that every page makes the files its examples
need (a reader can follow any page from its first command). Within a page, every fenced block whose first line starts with "$ " is an output block: each "$ " line (with its
backslash continuation lines) is run by bash, in order, in one scratch directory shared by all blocks
of that page (so files made by an earlier block exist for a later one), and the block is rewritten as the commands
followed by what they printed (stdout and stderr, as a terminal user sees them). A ```bash block preceded
by the line "<!-- readme: run -->" is run too (it makes input files) but not rewritten. Truncation is
written into the commands themselves (| head -N, | grep ...), so that nothing is edited by hand.

    python3 docs/readme/regenerate.py                            # rewrite README.md and every guide page
    python3 docs/readme/regenerate.py docs/guide/your-own-data.md  # only the pages named
    python3 docs/readme/regenerate.py --check                    # exit 1 and show a diff if a page would change

Runs take minutes (the examples generate up to 2*10^5 rows). The launcher ./dpspectra is used, so the jar
is built first if it is stale. The scratch directory has ../shared (the data sets) beside it, as the
repository has, and a copy of docs/schemas. docs/reproductions/*/report.md are copied into the scratch directory so
that the examples about them see the committed evidence without being able to touch it.
"""
import difflib
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
RUN_MARKER = "<!-- readme: run -->"
MARK = "@@readme-command@@"


def commands(lines):
    """The commands of an output block: each '$ ' line joined with its continuation lines."""
    cmds, i = [], 0
    while i < len(lines):
        if lines[i].startswith("$ "):
            cmd = [lines[i]]
            while cmd[-1].endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd.append(lines[i])
            cmds.append(cmd)
        i += 1
    return cmds


def run(cmds, scratch):
    """Runs the commands in one bash session (so that $? refers to the previous command)."""
    script = ["__s=0"]
    for n, cmd in enumerate(cmds):
        text = "\n".join(cmd)[2:]
        script.append(f"echo '{MARK}{n}'; (exit $__s); {text} 2>&1; __s=$?")
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=scratch, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    # paths inside the scratch directory are printed relative to it, as a user in that directory sees them
    printed_all = done.stdout
    for prefix in {str(scratch), str(scratch.resolve())}:
        printed_all = printed_all.replace(prefix + "/", "")
    parts = re.split(MARK + r"\d+\n", printed_all)[1:]
    out = []
    for cmd, printed in zip(cmds, parts):
        out.extend(cmd)
        out.extend(printed.rstrip("\n").split("\n") if printed.strip() else [])
    return out


def regenerate(text, scratch):
    lines = text.split("\n")
    result, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            end = i + 1
            while not lines[end].startswith("```"):
                end += 1
            body = lines[i + 1:end]
            if body and body[0].startswith("$ "):
                print("running:", body[0][:100], file=sys.stderr, flush=True)
                result.append(line)
                result.extend(run(commands(body), scratch))
                result.append(lines[end])
                i = end + 1
                continue
            if line.startswith("```bash") and i > 0 and lines[i - 1].strip() == RUN_MARKER:
                print("preparing:", body[0][:100], file=sys.stderr, flush=True)
                subprocess.run(["bash", "-c", "\n".join(body)], cwd=scratch, check=True)
            result.extend(lines[i:end + 1])
            i = end + 1
            continue
        result.append(line)
        i += 1
    return "\n".join(result)


def pages(named):
    """The pages to run: those named on the command line, or README.md and every guide page."""
    if named:
        return [pathlib.Path(n).resolve() for n in named]
    return [README] + sorted(GUIDE.glob("*.md"))


def scratch_for(tmp):
    """A fresh scratch directory standing where the repository stands, so ../shared/datasets resolves as for a
    user in the repository's root (shared/ beside the checkout)."""
    scratch = pathlib.Path(tmp) / "work"
    scratch.mkdir()
    # the nearest shared/datasets above the checkout, as the tests' SharedDatasets finds it (a git worktree
    # may stand one level deeper than the main checkout)
    shared = next((d / "shared" for d in ROOT.parents if (d / "shared" / "datasets").is_dir()), None)
    if shared is not None:
        (pathlib.Path(tmp) / "shared").symlink_to(shared.resolve())
    # a wrapper, not a symlink: the launcher finds the repository from its own path
    launcher = scratch / "dpspectra"
    launcher.write_text(f'#!/bin/sh\nexec "{ROOT / "dpspectra"}" "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    shutil.copytree(ROOT / "docs" / "schemas", scratch / "docs" / "schemas")
    for report in ROOT.glob("docs/reproductions/*/report.md"):
        target = scratch / report.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(report, target)
    return scratch


def main():
    args = sys.argv[1:]
    check = "--check" in args
    named = [a for a in args if a != "--check"]
    subprocess.run([str(ROOT / "dpspectra"), "--version"], check=True, stdout=subprocess.DEVNULL)
    changed = []
    for page in pages(named):
        old = page.read_text(encoding="utf-8")
        if not any(line.startswith("$ ") for line in old.split("\n")) and RUN_MARKER not in old:
            continue
        name = str(page.relative_to(ROOT))
        print(f"== {name}", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(prefix="dpspectra-readme-") as tmp:
            new = regenerate(old, scratch_for(tmp))
        if new == old:
            continue
        changed.append(name)
        if check:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), name,
                                                       "regenerated"))
        else:
            page.write_text(new, encoding="utf-8")
    if check:
        if changed:
            sys.exit(1)
        print("every output block matches its commands")
    elif changed:
        print("rewrote: " + ", ".join(changed), file=sys.stderr)


if __name__ == "__main__":
    main()
