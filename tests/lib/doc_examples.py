#!/usr/bin/env python3
"""Runs the console examples of README.md and docs/*.md and compares their output with the
documented one, so that an example cannot go stale (tests/integration/doc_examples.sh).

The convention, for whoever writes a page (docs/testing.md says the same):

- An example is a fenced code block whose first line starts with "$ ". Each "$ " line is a
  command (a line ending in a backslash continues on the next); the lines up to the next
  "$ " line are its documented output, stdout and stderr together. Blocks that do not start
  with "$ " (benchmark tables, formats, output shown without its command) are not run.
- The examples of one page are one shell session: they run in order, with bash, in a fresh
  directory laid out like the source tree: build/ (the build tree), workloads/ (the
  bundled workloads, built, beside their sources), tests/ (fixtures, tests/data), docs/, and ../shared/datasets/. `pmuscope` is
  the binary under test (first on PATH). Files an earlier example wrote are there for the
  later ones. In the output, the build directory's path reads "build" and the source
  tree's ".", as if the commands ran at the root of the source tree.
- Output is compared by its shape: every number (decimal, with sign, exponent or a
  trailing %, 0x hexadecimal, or a word of hex digits with at least one decimal digit, as
  perf script prints addresses and build-ids) matches any number, runs
  of spaces match any run of spaces, and everything else must be the same text: words,
  headers, column names, punctuation, the count of columns and lines. So a sampled share
  may differ from the page's, a renamed column, a new line or `nan` where `-` was may not.
- "..." elides: a line that is only "..." matches any number of lines (none included), and
  "..." inside a line matches any text there. Use it for long or machine-dependent output
  (rows of sampled tables whose names vary from run to run, paths, build-ids).
- A command shown without output lines is run, must exit 0, and its output is not
  compared (a step that makes a file for the next). A command's exit status is otherwise
  not checked: show it with `; echo "exit $?"` where it matters.
- An HTML comment just before the block sets what the reader does not need to see:
    <!-- doc-example: skip (REASON) -->   not run; counted and listed with its REASON
                                          (a hardware PMU, the emulated guest, a build step)
    <!-- doc-example: root -->            run only as root (system-wide counting,
                                          namespaces); listed as skipped otherwise
    <!-- doc-example: no pmu -->          output of a machine without a hardware PMU (the
                                          fallbacks, <not supported>, ns/sample); run only
                                          on such a machine, listed as skipped elsewhere
    <!-- doc-example: any order -->       each command's lines may come in any order (rows
                                          of a sampled table whose shares tie by design)
    <!-- doc-example: setup
    COMMANDS
    -->                                   shell commands run first (must exit 0), to make
                                          the files the example reads; a variable the
                                          page's later commands need goes to "$BASH_ENV"
                                          (echo "export X=..." >> "$BASH_ENV")
  Several may be given, one comment each or separated by ";" (setup last).
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r'^(\s*)(```+|~~~+)')
DIRECTIVE = re.compile(r'^<!--\s*doc-example:\s*(.*?)\s*(-->)?\s*$')
# Numbers: hex (0x.. or a word of hex digits holding a letter and a digit, but not the
# mantissa of a number in e-notation such as 6e-29), decimals, e-notation.
NUMBER = re.compile(r'0x[0-9a-fA-F]+|\b(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]+\b(?![-+]\d)|'
                    r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?')


class Example:
    def __init__(self, page, line, lines, directives):
        self.page, self.line, self.lines = page, line, lines
        self.skip = None
        self.root = False
        self.any_order = False
        self.no_pmu = False
        self.setup = []
        for d in directives:
            for part in d:
                if part.startswith('skip'):
                    self.skip = part[4:].strip().strip('()') or 'no reason given'
                elif part == 'root':
                    self.root = True
                elif part == 'any order':
                    self.any_order = True
                elif part == 'no pmu':
                    self.no_pmu = True
                elif part.startswith('setup'):
                    self.setup.append(part[5:].strip())
                else:
                    raise SystemExit(f'{page}:{line}: unknown doc-example directive "{part}"')
        self.commands = []  # [command, documented output lines]
        continued = False
        for l in lines:
            if continued:
                self.commands[-1][0] += '\n' + l
            elif l.startswith('$ '):
                self.commands.append([l[2:], []])
            else:
                self.commands[-1][1].append(l)
            continued = l.endswith('\\') and not self.commands[-1][1]


def parse_directives(comment_lines):
    """The parts of one doc-example comment: 'skip (...)', 'root', 'setup\nCOMMANDS'."""
    text = '\n'.join(comment_lines)
    text = re.sub(r'^<!--\s*doc-example:\s*', '', text)
    text = re.sub(r'\s*-->\s*$', '', text)
    if text.startswith('setup') or '\nsetup' in text or '; setup' in text:
        head, _, setup = text.partition('setup')
        parts = [p.strip() for p in split_outside_parentheses(head) if p.strip()]
        return parts + ['setup' + setup]
    return [p.strip() for p in split_outside_parentheses(text) if p.strip()]


def split_outside_parentheses(text):
    parts, depth, cur = [], 0, ''
    for ch in text:
        depth += (ch == '(') - (ch == ')')
        if ch == ';' and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    return parts + [cur]


def examples_of(path, name):
    lines = open(path, encoding='utf-8').read().split('\n')
    out, pending, i = [], [], 0
    while i < len(lines):
        l = lines[i]
        if DIRECTIVE.match(l):
            comment = [l]
            while '-->' not in comment[-1] and i + 1 < len(lines):
                i += 1
                comment.append(lines[i])
            pending.append(parse_directives(comment))
            i += 1
            continue
        m = FENCE.match(l)
        if m:
            indent, fence = m.group(1), m.group(2)
            start = i
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            if body and body[0].startswith('$ '):
                out.append(Example(name, start + 2, body, pending))
            elif pending:
                raise SystemExit(f'{name}:{start + 1}: a doc-example comment before a block that does not start with "$ "')
            pending = []
        elif l.strip():
            if pending:
                raise SystemExit(f'{name}:{i + 1}: a doc-example comment not followed by a code block')
        i += 1
    return out


def shape(line):
    return ' '.join(NUMBER.sub('#', line).split())


def line_matches(doc, actual):
    d, a = shape(doc), shape(actual)
    if '...' not in d:
        return d == a
    pattern = '.*'.join(re.escape(p) for p in d.split('...'))
    return re.fullmatch(pattern, a) is not None


def output_matches(doc, actual):
    """doc lines against actual lines; a doc line that is only '...' matches any lines."""
    memo = {}

    def match(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(doc):
            r = j == len(actual)
        elif doc[i].strip() == '...':
            r = any(match(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and line_matches(doc[i], actual[j]) and match(i + 1, j + 1)
        memo[(i, j)] = r
        return r
    return match(0, 0)


def difference(doc, out, limit=60):
    """The documented and the actual output as a unified diff, at most limit lines."""
    diff = list(difflib.unified_diff(doc, out, 'documented', 'actual', lineterm='', n=2))
    if len(diff) > limit:
        diff = diff[:limit] + [f'... ({len(diff) - limit} more lines of difference)']
    return '\n'.join('  ' + l for l in diff)


def output_matches_any_order(doc, actual):
    """any order: the documented lines are among the actual ones, each matched once, whatever
    their order; all of them, unless a line '...' allows more."""
    rest = [shape(l) for l in actual]
    for l in doc:
        if l.strip() == '...':
            continue
        hit = next((i for i, a in enumerate(rest) if line_matches(l, a)), None)
        if hit is None:
            return False
        del rest[hit]
    return not rest or any(l.strip() == '...' for l in doc)


def merged(doc, out):
    """--update: the actual output, keeping the documented '...' lines where they still elide
    something; the whole actual output where that would not match."""
    if not any(l.strip() == '...' for l in doc):
        return out
    new = []
    ops = difflib.SequenceMatcher(None, [shape(l) for l in doc], [shape(l) for l in out], autojunk=False)
    for op, i1, i2, j1, j2 in ops.get_opcodes():
        elided = [l for l in doc[i1:i2] if l.strip() == '...']
        if op == 'equal' or (op in ('replace', 'insert') and not elided):
            new += out[j1:j2]
        elif elided and (not new or new[-1].strip() != '...'):
            new.append(elided[0])
    return new if output_matches(new, out) else out


def strip_blank_ends(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


class Session:
    """A page's working directory, laid out like the source tree."""

    def __init__(self, args, root):
        self.args = args
        self.dir = os.path.join(root, 'src')
        os.makedirs(self.dir)
        os.makedirs(os.path.join(root, 'home'))
        os.makedirs(os.path.join(root, 'bin'))
        os.symlink(args.pmuscope, os.path.join(root, 'bin', 'pmuscope'))
        # workloads/: the built workloads beside their sources (`workloads/hotspots`, `workloads/names.c`)
        os.makedirs(os.path.join(self.dir, 'workloads'))
        for d in (os.path.join(args.build, 'workloads'), os.path.join(args.source, 'workloads')):
            for f in os.listdir(d):
                if not os.path.lexists(os.path.join(self.dir, 'workloads', f)):
                    os.symlink(os.path.join(d, f), os.path.join(self.dir, 'workloads', f))
        os.symlink(args.build, os.path.join(self.dir, 'build'))
        for d in ('tests', 'docs', 'bench', 'scripts'):
            os.symlink(os.path.join(args.source, d), os.path.join(self.dir, d))
        if os.path.isdir(args.shared):
            os.symlink(args.shared, os.path.join(root, 'shared'))
        # bash reads BASH_ENV before each command: a setup keeps variables for the page there
        bash_env = os.path.join(root, 'env.sh')
        open(bash_env, 'w').close()
        self.env = dict(os.environ, LC_ALL='C', HOME=os.path.join(root, 'home'), BASH_ENV=bash_env,
                        PATH=os.path.join(root, 'bin') + ':' + os.environ['PATH'])
        self.env.pop('PERF_PAGER', None)
        self.replacements = [(os.path.realpath(args.build), 'build'), (args.build, 'build'),
                             (os.path.realpath(args.source), '.'), (args.source, '.'),
                             (os.path.realpath(self.dir), '.'), (self.dir, '.')]

    def run(self, command):
        # a file, not a pipe: perf record, for one, writes its pipe format to a pipe on stdout
        with tempfile.TemporaryFile() as out:
            p = subprocess.run(['bash', '-c', command], cwd=self.dir, env=self.env, stdin=subprocess.DEVNULL,
                               stdout=out, stderr=subprocess.STDOUT, timeout=self.args.timeout)
            out.seek(0)
            text = out.read().decode('utf-8', 'replace')
        for path, name in self.replacements:
            text = text.replace(path + '/', name + '/').replace(path, name)
        return p.returncode, strip_blank_ends([l.rstrip() for l in text.rstrip('\n').split('\n')] if text else [])


def run_page(args, path, name, results):
    examples = examples_of(path, name)
    if not examples:
        return []
    root = tempfile.mkdtemp(prefix='doc-examples.')
    session = Session(args, root)
    updates = []
    try:
        for ex in examples:
            where = f'{name}:{ex.line}'
            if ex.skip:
                results['skipped'].append(f'{where}: {ex.skip}')
                continue
            if ex.root and os.geteuid() != 0:
                results['skipped'].append(f'{where}: needs root')
                continue
            if ex.no_pmu and args.has_pmu:
                results['skipped'].append(f'{where}: shows a machine without a hardware PMU')
                continue
            failure = None
            for s in ex.setup:
                rc, out = session.run('set -e\n' + s)
                if rc != 0:
                    failure = f'setup exited {rc}:\n' + '\n'.join(out)
                    break
            new_lines = []
            for command, doc in ex.commands if not failure else []:
                try:
                    rc, out = session.run(command)
                except subprocess.TimeoutExpired:
                    failure = f'$ {command}\n  ran past {args.timeout} s'
                    break
                doc = strip_blank_ends(doc)
                new_lines += ['$ ' + command.split('\n')[0]] + command.split('\n')[1:]
                if not doc:
                    if rc != 0 and not failure:
                        failure = f'$ {command}\n  exited {rc} (a command shown without output must succeed):\n' + \
                                  '\n'.join('  | ' + l for l in out[-20:])
                    continue
                new_lines += merged(doc, out)
                matches = output_matches_any_order if ex.any_order else output_matches
                if not matches(doc, out) and not failure:
                    failure = f'$ {command}\n' + difference(doc, out)
            if failure:
                results['failed'].append(f'{where}: {failure}')
                updates.append((ex, new_lines))
            else:
                results['passed'] += 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return updates


def write_updates(path, updates):
    """--update: the failed examples without elisions get the output just seen."""
    lines = open(path, encoding='utf-8').read().split('\n')
    for ex, new in sorted(updates, key=lambda u: -u[0].line):
        start = ex.line - 1  # first body line, 0-based
        lines[start:start + len(ex.lines)] = new
    open(path, 'w', encoding='utf-8').write('\n'.join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pmuscope', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('--shared', required=True)
    ap.add_argument('--timeout', type=int, default=120, help='seconds a command may run')
    ap.add_argument('--update', action='store_true',
                    help='write the output seen into the failed examples, keeping their "..." lines where they '
                         'still elide something (read the diff before committing it)')
    ap.add_argument('--exclude', action='append', default=[], metavar='PAGE',
                    help='leave this page out of the default list (another test checks it)')
    ap.add_argument('pages', nargs='*', help='pages to check (default: README.md and docs/*.md)')
    args = ap.parse_args()
    for a in ('pmuscope', 'build', 'source', 'shared'):
        setattr(args, a, os.path.abspath(getattr(args, a)))
    pages = args.pages or [p for p in ['README.md'] + sorted('docs/' + f for f in os.listdir(
        os.path.join(args.source, 'docs')) if f.endswith('.md')) if p not in args.exclude]
    # the pages show a machine without a hardware PMU where it matters (marked "no pmu")
    probe = subprocess.run([args.pmuscope, 'stat', '-x,', '-e', 'cycles', '--', 'true'],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    args.has_pmu = '<not supported>' not in probe.stderr
    results = {'passed': 0, 'failed': [], 'skipped': []}
    for page in pages:
        path = page if os.path.isabs(page) else os.path.join(args.source, page)
        name = os.path.relpath(path, args.source)
        before = len(results['failed']) + results['passed']
        updates = run_page(args, path, name, results)
        print(f'{name}: {len(results["failed"]) + results["passed"] - before} examples run', flush=True)
        if args.update and updates:
            write_updates(path, updates)
    for s in results['skipped']:
        print(f'skipped {s}')
    for f in results['failed']:
        print(f'FAIL {f}')
    print(f'{results["passed"]} passed, {len(results["failed"])} failed, {len(results["skipped"])} skipped')
    return 1 if results['failed'] else 0


if __name__ == '__main__':
    sys.exit(main())
