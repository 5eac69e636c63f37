// Test-only: happy-dom's <select> is a Proxy whose ownKeys lists only its options, so React's
// fiber key is invisible to `for…in`. Fluent's development-mode autofocus check (run when a
// popover opens) walks the popover's elements looking for that key and throws on a <select>.
// Here the check skips such a node instead; a real browser never takes this path.
const original = document.createTreeWalker.bind(document);
document.createTreeWalker = (root: Node, whatToShow?: number, filter?: NodeFilter | null) => {
  if (!filter) return original(root, whatToShow, filter);
  const accept = typeof filter === 'function' ? filter : filter.acceptNode.bind(filter);
  const safe = (node: Node) => {
    try {
      return accept(node);
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('getReactFiber()')) return NodeFilter.FILTER_SKIP;
      throw e;
    }
  };
  return original(root, whatToShow, { acceptNode: safe });
};
