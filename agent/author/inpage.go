package author

// inpageJS is the in-page script (see doc.go); stub until inpage.js is
// written.
const inpageJS = `globalThis.__taAuthor = { setMode() {}, element() { return null; } };`
