/** The credentials tests send through the provider; no file the suite writes may contain one. */
export const SECRETS = {
  apiKey: 'sk-ant-test-SECRET-0123456789abcdef',
  bearer: 'sk-proj-SECRET-bearer-abcdefghijklmnop',
  cookie: 'session=SECRET-cookie-value-42',
  custom: 'corp-token-SECRET-77',
  /** Shapes no default pattern knows: only learning them from the request keeps them off disk. */
  echoedBearer: 'vh-live-ECHOED-bearer-9f8e7d6c5b4a',
  echoedKey: 'vh-key-ECHOED-x-api-key-0a1b2c3d',
  googKey: 'AIzaSy-ECHOED-goog-key-4e5f6a7b8c',
  bodyKey: 'gateway-ECHOED-body-key-11223344',
} as const
