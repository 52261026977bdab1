(() => { const A = (globalThis.__taAuthor ||= {}); /* recorder.js: to be written (see doc.go) */ })();
