import { isUnderBaseUrl, normalizeServiceUrl } from '../../src/connect';

describe('normalizeServiceUrl', () => {
  it.each([
    ['https://api.example.com/', 'https://api.example.com'],
    ['  https://API.Example.com//  ', 'https://api.example.com'],
    ['api.example.com', 'https://api.example.com'],
    ['https://api.example.com/proxy/connect/', 'https://api.example.com/proxy/connect'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['http://localhost:4010/', 'http://localhost:4010'],
  ])('%s → %s', (raw, url) => {
    expect(normalizeServiceUrl(raw)).toEqual({ url });
  });

  it.each([
    ['', 'it is empty'],
    ['http://api.example.com', 'it must start with https://'],
    ['ftp://api.example.com', 'it must start with https://'],
    ['https://user:pw@api.example.com', 'it must not contain a user name or password'],
    ['https://api.example.com/?x=1', 'it must not contain "?" or "#" parts'],
    ['https://exa mple.com', 'it is not a valid web address'],
  ])('rejects %j', (raw, problem) => {
    expect(normalizeServiceUrl(raw)).toEqual({ problem });
  });
});

describe('isUnderBaseUrl', () => {
  it('matches scheme, host, port and path prefix', () => {
    expect(isUnderBaseUrl('https://api.example.com/api/v1/x', 'https://api.example.com')).toBe(true);
    expect(isUnderBaseUrl('https://api.example.com/p/api', 'https://api.example.com/p')).toBe(true);
    expect(isUnderBaseUrl('https://api.example.com/pp/api', 'https://api.example.com/p')).toBe(false);
    expect(isUnderBaseUrl('https://api.example.com.evil.io/api', 'https://api.example.com')).toBe(false);
    expect(isUnderBaseUrl('http://api.example.com/api', 'https://api.example.com')).toBe(false);
    expect(isUnderBaseUrl('https://api.example.com:8443/api', 'https://api.example.com')).toBe(false);
    expect(isUnderBaseUrl('not a url', 'https://api.example.com')).toBe(false);
  });
});
