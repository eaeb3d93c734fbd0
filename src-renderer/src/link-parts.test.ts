// A link taken apart for its confirmation: the address as it will open, the site or the recipients to emphasise, an
// international (homograph) site name as its punycode, and the data the link carries, decoded.
import { describe, expect, it } from 'vitest';
import { linkParts } from './link-parts';

describe('link parts', () => {
  it('a link with a secret in its query: the whole address, the host apart, the secret listed', () => {
    const parts = linkParts('https://collect.example.net:8443/p/x?token=sk-live-123&note=a%20b#top');
    expect(parts).toEqual({
      href: 'https://collect.example.net:8443/p/x?token=sk-live-123&note=a%20b#top',
      scheme: 'https',
      before: 'https://',
      emphasis: 'collect.example.net:8443',
      after: '/p/x?token=sk-live-123&note=a%20b#top',
      punycode: false,
      query: [
        { name: 'token', value: 'sk-live-123' },
        { name: 'note', value: 'a b' },
      ],
    });
    expect(`${parts?.before}${parts?.emphasis}${parts?.after}`).toBe(parts?.href);
  });

  it('a host that imitates another in Cyrillic shows as the punycode it is, and says so', () => {
    const parts = linkParts('https://аpple.com/login');
    expect(parts?.emphasis).toBe('xn--pple-43d.com');
    expect(parts?.punycode).toBe(true);
    expect(parts?.href).toBe('https://xn--pple-43d.com/login');
  });

  it('user info before the host cannot pass for the site: the host is what follows the @', () => {
    const parts = linkParts('https://github.com@evil.example/repo');
    expect(parts?.emphasis).toBe('evil.example');
    expect(parts?.before).toBe('https://github.com@');
  });

  it('a mail link: the recipients emphasised, its body listed decoded', () => {
    const parts = linkParts('mailto:drop@evil.example?subject=hi&body=AWS_SECRET%3Dabc%0Aline2');
    expect(parts).toMatchObject({
      scheme: 'mailto',
      before: 'mailto:',
      emphasis: 'drop@evil.example',
      after: '?subject=hi&body=AWS_SECRET%3Dabc%0Aline2',
      query: [
        { name: 'subject', value: 'hi' },
        { name: 'body', value: 'AWS_SECRET=abc\nline2' },
      ],
    });
  });

  it('anything but an absolute http(s) or mailto URL gives nothing to open', () => {
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', '/relative', 'not a url', 'data:text/html,x'])
      expect(linkParts(bad), bad).toBeNull();
  });
});
