(() => { const A = (globalThis.__taAuthor ||= {}); /* locators.js: to be written (see doc.go) */ })();
