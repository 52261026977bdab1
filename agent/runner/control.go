package runner

// ControlURL is the DevTools address of the warm browser, for tools (the
// hub's benchmark) that compare the runner with plain rod on the same
// Chromium.
func (b *Browser) ControlURL() string { return b.url }
