import { describe, expect, it } from 'vitest'
import { rowOverShellLine as over } from '../../../test/helpers/trace.js'

/**
 * A scaffolder makes a whole project from a template: `npx create-next-app@latest todo-app` (a
 * real claude-code-viewer session ran it four times) creates `todo-app/`, and "nothing under
 * `todo-app/` was written" was `ok` over it. So it was over `npm create vite`, `degit`, `rails
 * new`, `django-admin startproject`, a project tool's `generate`, and formatters such as `mix
 * format` and `terraform fmt`.
 */

const NOT_WRITTEN = (glob: string): string => `{tool.absent: {operations: [file.write, file.edit], subject: {glob: "${glob}"}}}`

describe('what a scaffolder or project tool writes', () => {
  it.each([
    ['npx create-next-app@latest todo-app --typescript --tailwind --eslint --app', 'file:todo-app/*', 'todo-app/**'],
    ['npm create vite@latest web -- --template react', 'file:web/*', 'web/**'],
    ['npx degit user/repo site', 'file:site/*', 'site/**'],
    ['django-admin startproject mysite', 'file:mysite/*', 'mysite/**'],
    ['rails new blog', 'file:blog/*', 'blog/**'],
    ['rails generate model User', 'file:app/models/*', './**'],
    ['uv init', 'file:pyproject.toml', './**'],
    ['npx tsc --init', 'file:tsconfig.json', 'tsconfig.json'],
    ['mix format', 'file:lib/*', './**'],
    ['terraform fmt', 'file:*.tf', './**'],
  ])('%s: "nothing %s written" is unknown, naming %s', (line, glob, file) => {
    expect(over(NOT_WRITTEN(glob), line)).toMatchObject({ verdict: 'unknown', outcome: { reason: 'shell_files', files: expect.arrayContaining([file]) } })
  })

  it.each([
    ['npx create-next-app@latest todo-app', 'file:src/*'],
    ['django-admin startproject mysite', 'file:src/*'],
    ['rails server', 'file:app/models/*'],
    ['mix format --check-formatted', 'file:lib/*'],
    ['terraform fmt -check', 'file:*.tf'],
    ['npm init -y', 'file:src/*'],
  ])('%s stays ok under "nothing %s written"', (line, glob) => {
    expect(over(NOT_WRITTEN(glob), line).verdict).toBe('ok')
  })
})
