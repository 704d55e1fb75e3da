/**
 * The organization domain derived from its name (SPEC.md section 5): lowercase, accents
 * removed, every run of other characters a single dash, no dash at either end, at most 63
 * characters. `null` when the name has no letter or digit to build one from.
 */
export function domainFromName(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/g, '');
  return slug.length > 0 ? slug : null;
}
