// The redoc bundle shows a logo fetched from redocly's CDN in its side menu. The documentation
// site loads nothing but its own files, the spec and the analytics script (SPEC.md section 7):
// the logo becomes an empty inline image and the "API docs by Redocly" credit stays as text.
const cdnLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const emptyImage = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

module.exports = function redocOfflineLoader(source) {
  return source.split(cdnLogo).join(emptyImage);
};
