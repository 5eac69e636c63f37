// Test-only: happy-dom's Web Animations rejects a cancelled animation's `finished` promise that no
// one awaits (an unhandled rejection per closing dialog). Without `animate`, Fluent's motion uses its
// own test-environment path (its documented behaviour under jsdom).
Object.defineProperty(Element.prototype, 'animate', { value: undefined, configurable: true, writable: true });
