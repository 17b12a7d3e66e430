/** The credentials tests send through the provider; no file the suite writes may contain one. */
export const SECRETS = {
  apiKey: 'sk-ant-test-SECRET-0123456789abcdef',
  bearer: 'sk-proj-SECRET-bearer-abcdefghijklmnop',
  cookie: 'session=SECRET-cookie-value-42',
  custom: 'corp-token-SECRET-77',
} as const
