// A link the model wrote, taken apart for the confirmation that shows where it goes (LinkConfirm.tsx): the address
// exactly as it will open (the URL parser's form, so an international host shows as the punycode it really is), with
// the site — or a mail link's recipients — to emphasise, and the data it carries (query parameters, decoded).

export interface LinkParts {
  /** What opens: the parsed, normalised URL. */
  href: string;
  scheme: 'http' | 'https' | 'mailto';
  /** `href` in three pieces around the part to emphasise: the host (http/s) or the recipients (mailto). */
  before: string;
  emphasis: string;
  after: string;
  /** Host labels in punycode (`xn--`): the name shown in another alphabet may imitate a familiar one. */
  punycode: boolean;
  /** Query parameters, decoded: what the link sends along (`?body=` of a mail link, a token in a URL). */
  query: { name: string; value: string }[];
}

/** The link's parts, or null for anything that is not an absolute http(s) or mailto URL (nothing opens then). */
export function linkParts(raw: string): LinkParts | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https' && scheme !== 'mailto') return null;
  const href = url.href;
  const query = [...url.searchParams].map(([name, value]) => ({ name, value }));
  if (scheme === 'mailto') {
    const recipients = url.pathname;
    const at = 'mailto:'.length;
    return {
      href,
      scheme,
      before: 'mailto:',
      emphasis: recipients,
      after: href.slice(at + recipients.length),
      punycode: false,
      query,
    };
  }
  const hostAt = href.indexOf(url.host, url.protocol.length + 2);
  return {
    href,
    scheme,
    before: href.slice(0, hostAt),
    emphasis: url.host,
    after: href.slice(hostAt + url.host.length),
    punycode: url.hostname.split('.').some((label) => label.startsWith('xn--')),
    query,
  };
}
