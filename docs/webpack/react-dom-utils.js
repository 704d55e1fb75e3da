/* eslint-disable @typescript-eslint/no-require-imports -- required when first used, as Gatsby's own file does */
// Replaces Gatsby's .cache/react-dom-utils.js in the browser bundle (gatsby-node.ts): the same
// functions, but react-dom/client is required when one is first called instead of when the
// module is created. Gatsby's production-app calls reactDOMUtils() while the scripts start, so
// react-dom (the largest module of the site) was evaluated in that task, the longest of the
// page load; it is now evaluated when the page renders, in a task of its own.
const roots = new WeakMap();

function errorOptions(options) {
  return options.onUncaughtError || options.onCaughtError
    ? { onUncaughtError: options.onUncaughtError, onCaughtError: options.onCaughtError }
    : undefined;
}

function reactDOMUtils() {
  const render = (Component, el, options = {}) => {
    let root = roots.get(el);
    if (!root) {
      root = require('react-dom/client').createRoot(el, errorOptions(options));
      roots.set(el, root);
    }
    root.render(Component);
  };
  const hydrate = (Component, el, options = {}) => require('react-dom/client').hydrateRoot(el, Component, errorOptions(options));
  return { render, hydrate };
}

module.exports = { reactDOMUtils };
