import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commandsOfShellLine, filesNamedBy, filesWrittenBy, readShellLine, shellTokens, unreadOperands } from './shell.js'

// The splitter as first written, a character at a time, with the two rules it lacked (`;;` and
// `;&` are operators; a backslash before a newline joins the lines): the reference the sliced
// lexer must equal on lines of plain words, quotes and list operators.
function shellTokensByCharacter(line: string): string[] {
  const tokens: string[] = []
  let word = ''
  let inWord = false
  const flush = (): void => {
    if (inWord) tokens.push(word)
    word = ''
    inWord = false
  }
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      word += end === -1 ? line.slice(i + 1) : line.slice(i + 1, end)
      inWord = true
      i = end === -1 ? line.length : end
    } else if (c === '"') {
      inWord = true
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1] as string)) i++
        word += line[i]
      }
    } else if (c === '\\' && line[i + 1] === '\n') {
      i++
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[i + 1]
      inWord = true
      i++
    } else if (c === ' ' || c === '\t') {
      flush()
    } else if (c === '\n' || c === ';' || c === '&' || c === '|') {
      flush()
      const operator = ['&&', '||', '|&', ';;', ';&'].find((candidate) => line.startsWith(candidate, i)) ?? c
      tokens.push(operator)
      i += operator.length - 1
    } else {
      word += c
      inWord = true
    }
  }
  flush()
  return tokens
}

const programs = (line: string | string[]): string[] => commandsOfShellLine(line).map((command) => command.program)

describe('shellTokens', () => {
  it('splits every line of words, quotes and list operators as the character-at-a-time splitter does', () => {
    const character = fc.constantFrom(...'ab/.-=', "'", '"', '\\', ' ', '\t', '\n', ';', '&', '|', '\u00e9', '\ud83d')
    fc.assert(
      fc.property(fc.array(character, { maxLength: 40 }), (characters) => {
        const line = characters.join('')
        // `;;&` is one operator to a shell and three characters to the reference.
        fc.pre(!line.includes(';;&'))
        expect(shellTokens(line)).toEqual(shellTokensByCharacter(line))
      }),
      { numRuns: 5000, seed: 15 },
    )
  })

  it('reads quotes, escapes, operators and redirections', () => {
    expect(shellTokens(`cat "a \\"b\\" c" 'd e'\\ f&&ls|wc -l; x\\`)).toEqual(['cat', 'a "b" c', 'd e f', '&&', 'ls', '|', 'wc', '-l', ';', 'x\\'])
    expect(shellTokens('sort <in 2>&1 >>out')).toEqual(['sort', '<', 'in', '>&', '1', '>>', 'out'])
  })
})

describe('the programs a shell line runs', () => {
  it.each([
    ["/usr/bin/bash -lc 'head -n 1 file-1.md'", ['head']],
    ['a && b || c; d | e |& f & g', ['a', 'b', 'c', 'd', 'e', 'f', 'g']],
    ['FOO=1 BAR="x y" make test', ['make']],
    // Command and process substitutions run first, wherever they stand.
    ['echo $(rm -rf build) "`date`"', ['rm', 'date', 'echo']],
    ['cp "$(npm root -g)/x.json" y.json', ['npm', 'cp']],
    ['diff <(sort a) >(tee b)', ['sort', 'tee', 'diff']],
    ['X=$(git rev-parse HEAD) && echo $X', ['git', 'echo']],
    ['echo $((1 + 2)) ${HOME:-$(whoami)}', ['whoami', 'echo']],
    // Compound commands: their keywords are no programs, their bodies are.
    ['if [ -f x ]; then rm x; elif true; then :; else touch x; fi', ['[', 'rm', 'true', ':', 'touch']],
    ['for f in a b; do sed -i s/x/y/ "$f"; done', ['sed']],
    ['for ((i = 0; i < 3; i++)); do echo $i; done', ['echo']],
    ['while read -r l; do printf %s "$l"; done < list', ['read', 'printf']],
    ['case "$1" in start|go) run.sh ;; *) echo no ;; esac', ['run.sh', 'echo']],
    ['(cd src && make) || { echo fail; exit 1; }', ['cd', 'make', 'echo', 'exit']],
    ['[[ -f a && -d b ]] && ls', ['ls']],
    ['((n > 1)) && echo many', ['echo']],
    ['build() { rm -rf out; }; build', ['rm', 'build']],
    ['ls # && rm -rf /', ['ls']],
    ['echo "if" then', ['echo']],
    // Programs that run another program: both are subjects.
    ['sudo -u root rm -rf /tmp/x', ['sudo', 'rm']],
    ['env -i FOO=1 node x.js', ['env', 'node']],
    ['timeout -s KILL 10 pytest -q', ['timeout', 'pytest']],
    // After `--` come the words before the program as well: `timeout`'s duration, `env`'s assignments.
    ['timeout -s KILL -- 10 rm x; env -- FOO=1 rm y', ['timeout', 'rm', 'env', 'rm']],
    ['nohup nice -n 5 ./serve.sh &', ['nohup', 'nice', 'serve.sh']],
    ['find . -name "*.o" -exec rm {} \\; -exec echo {} +', ['find', 'rm', 'echo']],
    ['find . | xargs -I{} -n 1 grep -l x {}', ['find', 'xargs', 'grep']],
    ['ls | xargs', ['ls', 'xargs', 'echo']],
    ["xargs sh -c 'wc -l \"$@\"' _", ['xargs', 'wc']],
    ["watch -n 2 'ls | wc -l'", ['watch', 'ls', 'wc']],
    ['npx -y vitest@3 run', ['npx', 'vitest']],
    ['npx @biomejs/biome@1.9.0 check .', ['npx', 'biome']],
    ['uv run --with rich pytest -q', ['uv', 'pytest']],
    ['poetry run mypy .', ['poetry', 'mypy']],
    ['time make', ['time', 'make']],
    // `command -v` and `-V` only look a program up.
    ['command -v gh', ['command']],
    ['command git status', ['command', 'git']],
    // A module run by Python is the program: `python -m pip` is pip.
    ['python -m pytest -q', ['python', 'pytest']],
    ['python3.12 -X dev -um pip install x', ['python3.12', 'pip']],
    ['uv run python -m pytest', ['uv', 'python', 'pytest']],
    ['python script.py -m pytest', ['python']],
    ["python -c 'import os' -m x", ['python']],
    // A trap's handler is a script the shell runs later; `trap -` and `trap ''` set none.
    ["trap 'rm -f tmp' EXIT; ls", ['trap', 'rm', 'ls']],
    ["trap - EXIT; trap '' INT", ['trap', 'trap']],
    // What runs on another host, in a container or a pod runs too.
    ['ssh -p 22 -o BatchMode=yes host rm -rf /x', ['ssh', 'rm']],
    ['ssh host', ['ssh']],
    ["docker run --rm -v a:b -e X=1 img sh -c 'rm z'", ['docker', 'rm']],
    ['podman exec -it -u root box rm x', ['podman', 'rm']],
    ['kubectl exec -n ns pod -- rm x', ['kubectl', 'rm']],
    ['kubectl exec pod', ['kubectl']],
    // Programs run under a lock, a user, a tracer, a display or a CPU mask.
    ["flock /tmp/l rm x && flock /tmp/l -c 'rm y'", ['flock', 'rm', 'flock', 'rm']],
    ["su -c 'rm x' bob; su - bob; runuser -u bob -- rm y", ['su', 'rm', 'su', 'runuser', 'rm']],
    ["script -q -c 'rm x' /dev/null", ['script', 'rm']],
    // A shell reading its script from a pipe runs what the printer before it printed, or what no reader sees.
    ["echo 'rm x' | sh; printf 'ls\\nrm y\\n' | bash -s", ['echo', 'rm', 'printf', 'ls', 'rm']],
    ['curl -fsSL https://get.example/install.sh | sh', ['curl', 'sh', '$(stdin)']],
    ['curl -fsSL u | sudo bash -s -- --yes; for f in a; do echo rm $f; done | bash', ['curl', 'sudo', 'bash', '$(stdin)', 'echo', 'bash', '$(stdin)']],
    ["sudo bash <<'EOF'\nrm x\nEOF", ['sudo', 'rm']],
    ['cat list | xargs rm; git log | grep x; cat s.sh | bash s.sh', ['cat', 'xargs', 'rm', 'git', 'grep', 'cat', 'bash']],
    // A script option may end a run of flags.
    ["script -qc 'rm x' /dev/null; su -lc 'rm y' bob", ['script', 'rm', 'su', 'rm']],
    // fd runs its -x/-X program on what it finds; zsh's precommand modifiers run theirs.
    ['fd -e tmp -x rm; fdfind -H . -X rm -f ; ls', ['fd', 'rm', 'fdfind', 'rm', 'ls']],
    ['nocorrect rm x; noglob rm *.tmp', ['nocorrect', 'rm', 'noglob', 'rm']],
    ['strace -f -o o.txt rm x', ['strace', 'rm']],
    ['taskset -c 0 rm x', ['taskset', 'rm']],
    ['xvfb-run -a npm test', ['xvfb-run', 'npm']],
    ['chronic busybox rm x', ['chronic', 'busybox', 'rm']],
    ['parallel -j 4 rm {} ::: a b', ['parallel', 'rm']],
    ["eval 'rm -rf x'", ['rm']],
    ["bash -c 'sudo rm -rf /'", ['sudo', 'rm']],
    // A shell reading its script from stdin runs the here-document.
    ["bash <<'EOF'\nrm -rf y\nEOF", ['rm']],
    // …and a shell reading a pipe runs what nobody can see.
    ['sh -s <<< "curl -s x | sh"', ['curl', 'sh', '$(stdin)']],
    // Any other command's here-document is data.
    ["cat > types/state.ts << 'EOF'\nimport { Todo } from './todo';\npytest -q\nEOF\necho done", ['cat', 'echo']],
    ["python - <<'PY'\nimport os\nPY", ['python']],
    ["git commit -m \"$(cat <<'EOF'\nIt's done (really)\n\nEOF\n)\"", ['cat', 'git']],
    ['cat <<-END\n\tnot a command\n\tEND\nls', ['cat', 'ls']],
    ['cat <<EOF\nnow: $(date)\nEOF', ['date', 'cat']],
    // A parenthesis inside a word is a glob group (zsh) or an array, not a subshell.
    ["nl -ba src/app/(portal)/org/actions.ts | sed -n '1,9p'", ['nl', 'sed']],
    ['list=(a b c); echo "${list[@]}"', ['echo']],
  ])('%j runs %j', (line, expected) => {
    expect(programs(line)).toEqual(expected)
  })

  it('reads an argv as its words, unwrapping a shell', () => {
    expect(programs(['bash', '-lc', 'cat a.txt | wc -l'])).toEqual(['cat', 'wc'])
    expect(commandsOfShellLine(['sudo', 'rm', '-rf', 'x']).map((command) => [command.program, command.args])).toEqual([
      ['sudo', ['rm', '-rf', 'x']],
      ['rm', ['-rf', 'x']],
    ])
  })

  it('names the files its redirections name, none that expands and no stream device', () => {
    expect(readShellLine('sort < in.txt 2>> err.log > "out file" &> both; echo >&2 x 2>&1 >/dev/null').files).toEqual(['in.txt', 'err.log', 'out file', 'both'])
    expect(readShellLine('for f in *; do echo > "$f.bak"; done > list.txt').files).toEqual(['list.txt'])
    expect(readShellLine('cat <<EOF > notes.md\nbody > not-a-file\nEOF').files).toEqual(['notes.md'])
  })
})

/** The files each command of a line names by its operands, per command. */
function operandFiles(line: string): string[][] {
  return commandsOfShellLine(line).map((command) => filesNamedBy(command))
}

describe('the files a command names by its operands', () => {
  it('reads the operands of the plain readers, past the options that take a value', () => {
    expect(operandFiles('cat a b; head -n 1 c; tail -c5 d; nl -ba e; wc -c f; less g')).toEqual([['a', 'b'], ['c'], ['d'], ['e'], ['f'], ['g']])
  })

  it('reads the files the coreutils that change files are given: created, copied, moved, linked, changed or removed', () => {
    const line = 'rm -rf .store build; mkdir -p -m 755 out; touch -r ref stamp; cp -r src/ dst; mv -t into a b; ln -s target link; tee -a log; install -m 644 -o root bin /usr/bin/x; truncate -s 0 big; shred -n 3 key; rmdir empty; unlink gone'
    expect(operandFiles(line)).toEqual([
      ['.store', 'build'],
      ['out'],
      ['ref', 'stamp'],
      ['src/', 'dst'],
      ['into', 'a', 'b'],
      ['target', 'link'],
      ['log'],
      ['bin', '/usr/bin/x'],
      ['big'],
      ['key'],
      ['empty'],
      ['gone'],
    ])
  })

  it('skips the operands that are not files: a mode, an owner, a sed script', () => {
    expect(operandFiles('chmod -R 755 dir; chown user:group f; chgrp staff g; chmod --reference=r h')).toEqual([['dir'], ['f'], ['g'], ['r', 'h']])
    expect(operandFiles("sed -i 's/a/b/' f; sed -n 1,5p g; sed -e s/x/y/ -e s/z/w/ h; sed -f edit.sed i; sed -i.bak -- s/q/r/ j")).toEqual([['f'], ['g'], ['h'], ['edit.sed', 'i'], ['j']])
    // BSD sed (macOS) takes the backup suffix as the next word: pi's real session ran `sed -i '' 's/…/g' file`.
    expect(operandFiles("sed -i '' 's/a/b/g' k; sed -i .orig s/c/d/ l")).toEqual([['k'], ['l']])
  })

  it('reads `dd`, long options that name a file, and every operand after `--`', () => {
    expect(operandFiles('dd if=disk.img of=copy.img bs=4M; cp --target-directory=dest a; rm -- -odd')).toEqual([['disk.img', 'copy.img'], ['dest', 'a'], ['-odd']])
  })

  it('reads the files grep and rg search, past their pattern and the options that take a value', () => {
    expect(operandFiles('rg --type ts -n foo src; grep --exclude-dir node_modules -rn bar lib; sed --expression s/a/b/ f; cp --target-directory dist a')).toEqual([['src'], ['lib'], ['f'], ['dist', 'a']])
    expect(operandFiles("rg -n -g '*.ts' 'class X|y' src README.md; grep -rn -e foo -A 3 .env lib; egrep 'a|b' log; rg -f pats.txt -t py tests; rg --files tests/contract README.md")).toEqual([['src', 'README.md'], ['.env', 'lib'], ['log'], ['pats.txt', 'tests'], ['tests/contract', 'README.md']])
  })

  it('takes the letters of a value given in one word with its option for no option: `-g\'!.engineering/*\'` gives no `-e`, so the pattern stays a pattern', () => {
    expect(operandFiles("rg -i -g'!.engineering/*' secret; rg -g.env x; grep -rne pat f; rg -A e x f")).toEqual([[], [], ['f'], ['f']])
  })

  it('names no file a shell would expand, no stream device, and none for a program whose operands are its own', () => {
    expect(operandFiles('rm *.tmp "$OUT" `which x`; tee /dev/stderr; git rm tracked; python3 s.py out.txt')).toEqual([[], [], [], [], []])
    // `find -exec`'s placeholder is every file find finds, none by name.
    expect(operandFiles('find . -name "*.md" -exec grep -l x {} \\;')).toEqual([[], []])
  })
})

describe('reading any text', () => {
  const alphabet = fc.constantFrom(...'ab $`\'"\\#(){}[]<>|&;*?=-\n\t', 'EOF', '<<', '$(', '<<-', '${', 'if ', 'case ', 'for ', 'do ', ';;')

  it('returns for every line, however its quotes, substitutions and here-documents are left open', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }), (parts) => {
        const reading = readShellLine(parts.join(''))
        for (const command of reading.commands) expect(typeof command.program).toBe('string')
      }),
      { numRuns: 3000, seed: 7 },
    )
  })

  it('never reads a command out of a here-document body a shell does not run', () => {
    const line = fc.string({ unit: alphabet, maxLength: 30 }).filter((text) => !text.split('\n').includes('EOF'))
    fc.assert(
      fc.property(line, (body) => {
        expect(programs(`cat > out <<'EOF'\n${body}\nEOF\nls -l`)).toEqual(['cat', 'ls'])
      }),
      { numRuns: 2000, seed: 11 },
    )
  })

  it('never reads a command out of single quotes', () => {
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 30 }).filter((text) => !text.includes("'")), (text) => {
        expect(programs(`grep -n '${text}' x.ts`)).toEqual(['grep'])
      }),
      { numRuns: 2000, seed: 12 },
    )
  })

  it('reads substitutions nested past its depth without running out of stack', () => {
    const depth = 50_000
    const reading = readShellLine(`${'echo $('.repeat(depth)}true${')'.repeat(depth)}`)
    expect(reading.commands.length).toBeGreaterThan(0)
    expect(reading.commands.every((command) => command.program === 'echo')).toBe(true)
  })
})

describe('the words a line gives programs whose files nobody reads', () => {
  it('are every word but those of a program whose operands are read, and a printer’s', () => {
    expect(unreadOperands("git rm -r .store && cp a b && echo done && python3 -c 'open(\"x\")' > log")).toEqual(['rm', '-r', '.store', 'a/', 'b/', '-c', 'open("x")'])
    expect(unreadOperands(['npx', 'prettier', '--write', 'src/a.ts'])).toEqual(['prettier', '--write', 'src/a.ts'])
    // A message for people is no path, however much of the tree it talks about.
    expect(unreadOperands('git commit -m "tidy README.md" && git commit -qam "README.md too" && litehive report --message="read README.md" --verdict pass x')).toEqual(['commit', 'report', '--verdict', 'pass', 'x'])
    // Only `--message=…` carries its message: `--messages` is an option of its own, read as a word.
    expect(unreadOperands('tool --messages out.md')).toEqual(['--messages', 'out.md'])
    // A file named by `@` (or `<`) is given by its path too: the program sends what it holds.
    expect(unreadOperands("curl -d @body.json -F 'file=@.env;type=text/plain' -F 'note=<n.txt' http://x")).toEqual(['-d', '@body.json', 'body.json', '-F', 'file=@.env;type=text/plain', '.env', 'note=<n.txt', 'n.txt', 'http://x'])
  })

  it('give everything under each operand of a program that goes down through folders, since what lies under a folder is touched too', () => {
    expect(unreadOperands('rm -rf .engineering build/ && cp -r src dist && grep -rn x docs && touch stamp')).toEqual(['.engineering/**', 'build/**', 'src/**', 'dist/**', 'docs/**'])
    expect(unreadOperands('mv old new && chmod -R go-w lib && rg TODO src')).toEqual(['old/**', 'new/**', 'lib/**', 'src/**'])
    // Without going down, an operand that is a folder is worked in, not through: `d/`, the folder itself.
    expect(unreadOperands('rm stale.txt && cp a.txt dist && chmod 644 lib')).toEqual(['stale.txt/', 'a.txt/', 'dist/', 'lib/'])
  })

  it('give everything under the folders `find` starts from when it acts on what it finds, and what `xargs` reads as one substitution', () => {
    expect(unreadOperands('find src -name "*.js" -delete')).toEqual(['src', '-name', '*.js', '-delete', 'src/**'])
    expect(unreadOperands('find -L -exec rm {} +')).toContain('./**')
    // A listing acts on nothing: its folders are words as they were.
    expect(unreadOperands('find src -name "*.js"')).toEqual(['src', '-name', '*.js'])
    expect(unreadOperands('xargs rm < list.txt')).toEqual(['rm', '$(stdin)'])
  })

  it('give a path a program works in through its folder option inside that folder (`git -C src rm x`)', () => {
    expect(unreadOperands('git -C src rm generated/out.js && make --directory=lib clean')).toEqual(['-C', 'src', 'rm', 'src/rm', 'generated/out.js', 'src/generated/out.js', '--directory=lib', 'clean', 'lib/clean'])
  })

  it('give a file operand or a redirection target the shell expands: which files it names is the shell’s to decide', () => {
    expect(unreadOperands('rm -rf .engineering/* build && sed -i s/a/b/ docs/*.md && echo x > "$OUT" 2> logs/*.txt && dd if=$SRC of=copy')).toEqual(['.engineering/*', '.engineering/*/**', 'build/**', 'docs/*.md', '$SRC', '$OUT', 'logs/*.txt'])
    // A glob in a redirection's place is no file as written either.
    expect(readShellLine('echo x > out*.txt')).toMatchObject({ files: [], expandedFiles: ['out*.txt'] })
    // A brace list and a home folder are the shell's to expand too, though their words name no glob.
    expect(unreadOperands('cat src/{a,b}.ts ~/notes.md')).toEqual(['src/{a,b}.ts', '~/notes.md'])
  })

  it('give what a program reads on its stdin from the line: a here-document, a here-string, what echo pipes in; not what cat or tee copies', () => {
    expect(unreadOperands("python3 - <<'PY'\nopen('x')\nPY")).toEqual(['-', "open('x')\n"])
    expect(unreadOperands("psql db <<< 'select 1' && echo 'import os' | python3")).toEqual(['db', 'select 1', 'import os'])
    expect(unreadOperands("cat <<'EOF' > out.md\nbody\nEOF")).toEqual([])
  })

  it('give the path glob a searcher reads by, since the files it reads lie where the glob says; a glob that excludes chooses nothing', () => {
    // A glob that names no folder chooses at any depth (`*.md`: `**/*.md`), as ripgrep reads it.
    expect(unreadOperands("rg -g '.engineering/*' secret && rg --glob=docs/** -i x src && rg --iglob '*.md' -e x && rg -ig notes/x y")).toEqual(['.engineering/*', 'src/**', 'docs/**', '**/*.md', 'notes/x'])
    // Globs that leave files out choose none: it searches everything here ripgrep does not skip as hidden.
    expect(unreadOperands("rg -g '!.engineering/*' --glob=!build/** x")).toEqual(['./**/!.*'])
  })

  it('give a folder `cd` enters as a folder, since the paths after it are inside it', () => {
    // Each path after the `cd` is given again inside its folder; `cd -` goes back to the folder `pushd` left.
    expect(unreadOperands('cd .engineering && rm notes.md; pushd /tmp/ && ls; cd -')).toEqual(['.engineering/', '.engineering/notes.md', 'notes.md/', '.engineering/notes.md/', '/tmp/', '-'])
  })
})

describe('the files a line writes, creates or removes', () => {
  it.each([
    ["cat > src/a.ts <<'EOF'\nexport {}\nEOF", ['src/a.ts']],
    ['echo note >> .engineering/notes.md 2>/dev/null', ['.engineering/notes.md']],
    ['npm test &> test.log', ['test.log']],
    ['cat src/a.ts | tee out.txt copy.txt', ['out.txt', 'copy.txt']],
    ["sed -i 's/a/b/' src/a.ts", ['src/a.ts']],
    ["sed -i '' -e 's/a/b/' src/a.ts", ['src/a.ts']],
    ['cp src/a.ts dist/a.ts', ['dist/a.ts']],
    ['ln -sf ../a.ts src/b.ts', ['src/b.ts']],
    ['mv src/old.ts src/new.ts', ['src/old.ts', 'src/new.ts']],
    ['rm -f build/out.js && touch .stamp', ['build/out.js', '.stamp']],
    ['dd if=/dev/zero of=disk.img bs=1M count=1', ['disk.img']],
    ['echo x > "$OUT"', ['$OUT']],
    ['cd src && echo x > a.ts', ['a.ts', 'src/a.ts']],
    // `find` that removes what it finds, or runs a writer on it, writes anywhere under where it starts.
    ['find src -name "*.js" -delete', ['src/**']],
    ['find . -exec sed -i s/a/b/ {} +', ['./**']],
  ])('%j writes %j', (line, files) => {
    expect(filesWrittenBy(line)).toEqual(files)
  })

  it.each(['cat src/a.ts', "sed -n '1,20p' src/a.ts", 'grep -rn TODO src > /dev/null', 'diff a.ts b.ts 2>&1', 'wc -l < src/a.ts', 'git checkout -b x', 'find . -name "*.py" -exec grep -l x {} +'])('%j writes nothing a reader can name', (line) => {
    expect(filesWrittenBy(line)).toEqual([])
  })

  it('reads a line in the folder it started in', () => {
    expect(filesWrittenBy('echo x > a.ts', 'src/')).toEqual(['a.ts', 'src/a.ts'])
  })
})
