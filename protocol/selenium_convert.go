package protocol

// The conversion of Selenium IDE commands into steps, shared by the
// migration of DSL version 1 and the import of .side projects.

import (
	"slices"
	"strings"
)

// seCommand is one Selenium-IDE-like command: a step of a DSL version 1
// document or a command of a .side test.
type seCommand struct {
	Path    string // where it is in the input: "steps[3]", "tests[0].commands[3]"
	ID      string // kept as the step id (version 1 only)
	Command string
	Target  string
	Targets []string // alternative locators, as Selenium IDE ranked them
	Value   string
	Comment string
	// A .side click that opens a window says so, and names the variable
	// Selenium IDE keeps the new window's handle in (see selectWindow).
	OpensWindow      bool
	WindowHandleName string
}

// converter turns Selenium commands into steps. Selenium's selectFrame is
// a state, so the converter keeps the current frame and puts it into the
// targets of later steps; the same for the window selected (see tabs).
// Selenium answers a dialog after the command that opened it, we arm the
// answer before: so the converter remembers the last step that may have
// opened one (see dialogs). Comment-only and disabled rows become words
// in the next step's description.
type converter struct {
	baseURL string // a .side project's url, for relative open targets
	frames  []Locator
	pending []string // words for the next step's description
	notes   []string // words for the document's description
	steps   []Step
	from    []int // per step, the index of the command that made it
	at      int   // the index of the command being converted
	issues  issueList

	opener int // the last step that may have opened a dialog, or -1
	dialog int // the dialog step armed for the opener, or -1
	armed  int // a dialog step armed for the next step (...OnNext commands), or -1

	tabs    []seTab        // the windows, in opening order; the first is the test's
	tab     int            // the selected one, -1 when not known (selected by title)
	handles map[string]int // window handle variables: the tab they name

	dropped map[int]string // block commands left out with their blocks, and why (see dropBlock)
	// runTest resolves run's target, a test of the same project, to the
	// id its component's calls name; nil where there is no project.
	runTest func(name string) (string, error)
}

func newConverter(baseURL string) *converter {
	return &converter{baseURL: baseURL, opener: -1, dialog: -1, armed: -1,
		tabs: []seTab{{opener: -1, seen: true}}, handles: map[string]int{}}
}

type commandFunc func(c *converter, cmd seCommand) []Step

// command converts one command, adding its steps or its issues.
func (c *converter) command(cmd seCommand) {
	name := strings.TrimSpace(cmd.Command)
	switch {
	case name == "" && strings.TrimSpace(cmd.Target+cmd.Value) == "":
		c.note(cmd.Comment)
		return
	case name == "":
		c.issues.add(cmd.Path+".command", CodeRequired, "command is required")
		return
	case strings.HasPrefix(name, "//"):
		// Selenium IDE skips disabled commands; so does the test, but it
		// keeps them in words.
		c.note(strings.TrimSpace("disabled in Selenium IDE: " + strings.TrimSpace(strings.TrimPrefix(name, "//")) + " " + cmd.Target + " " + cmd.Value))
		c.note(cmd.Comment)
		return
	}
	fn, ok := commands[strings.ToLower(name)]
	if !ok {
		if why, ok := notImported[strings.ToLower(name)]; ok {
			c.issues.add(cmd.Path+".command", CodeUnsupported, "%s %s", name, why)
			return
		}
		// Selenium IDE's own reference is covered: what is left comes
		// from a plugin, or is mistyped.
		c.issues.add(cmd.Path+".command", CodeUnsupported, "Selenium IDE command %q is not supported: it is not in Selenium IDE's command reference (a plugin's command?)", clip(name, 40))
		return
	}
	before := len(c.issues)
	steps := fn(c, cmd)
	if len(c.issues) == before && cmd.OpensWindow {
		c.opened(cmd.WindowHandleName)
	}
	if len(steps) == 0 {
		if len(c.issues) == before {
			c.note(cmd.Comment) // a command without a step of its own, such as selectFrame
		}
		return
	}
	c.note(cmd.Comment)
	if !wordless(steps[0].Type) { // else, end, do: the words go to the next step
		steps[0].Description = strings.TrimSpace(strings.Join(append(c.pending, steps[0].Description), "\n"))
		c.pending = nil
	}
	steps[0].ID = cmd.ID
	c.steps = append(c.steps, steps...)
	for range steps {
		c.from = append(c.from, c.at)
	}
	if len(steps) == 1 && steps[0].Type == "dialog" {
		c.armed = len(c.steps) - 1 // answerOnNextPrompt and the like
		return
	}
	// The last step of a command is the one that may open a dialog (the
	// Enter of a sendKeys); a dialog armed before is for it. Control flow
	// markers open none.
	for k := len(steps) - 1; k >= 0; k-- {
		if !flowMark(steps[k].Type) {
			c.opener, c.dialog, c.armed = len(c.steps)-len(steps)+k, c.armed, -1
			return
		}
	}
}

// note keeps words for the next step's description.
func (c *converter) note(s string) {
	if s = strings.TrimSpace(s); s != "" {
		c.pending = append(c.pending, s)
	}
}

// target reads a command's target: the primary locator first, then its
// alternatives, best kind first and without repeats. Alternatives that do
// not parse are left out: the primary one is enough.
func (c *converter) target(cmd seCommand) *Target {
	primary, err := ParseSeleniumLocator(cmd.Target)
	if err != nil {
		code := CodeUnsupported
		if strings.TrimSpace(cmd.Target) == "" {
			code = CodeRequired
		}
		c.issues.add(cmd.Path+".target", code, "%s", err.Error())
		return nil
	}
	var alts []Locator
	for _, s := range cmd.Targets {
		if l, err := ParseSeleniumLocator(s); err == nil && l != primary && !slices.Contains(alts, l) {
			alts = append(alts, l)
		}
	}
	slices.SortStableFunc(alts, func(a, b Locator) int { return locatorRank(a.Kind) - locatorRank(b.Kind) })
	t := &Target{Locators: append([]Locator{primary}, alts...)}
	if len(c.frames) > 0 {
		t.Frame = slices.Clone(c.frames)
	}
	return t
}

func (t *Target) clone() *Target {
	return &Target{Locators: slices.Clone(t.Locators), Frame: slices.Clone(t.Frame), Fingerprint: t.Fingerprint}
}

// finish returns the steps; words still pending (a trailing comment)
// go to the last step's description, or the document's when no step.
func (c *converter) finish() []Step {
	last := len(c.steps) - 1
	for last >= 0 && wordless(c.steps[last].Type) {
		last--
	}
	if len(c.pending) > 0 && last >= 0 {
		s := &c.steps[last]
		s.Description = strings.TrimSpace(s.Description + "\n" + strings.Join(c.pending, "\n"))
	} else {
		c.notes = append(c.notes, c.pending...)
	}
	c.pending = nil
	return c.steps
}

// describe adds the converter's document notes to a description.
func (c *converter) describe(desc string) string {
	if len(c.notes) == 0 {
		return desc
	}
	return strings.TrimSpace(desc + "\n" + strings.Join(c.notes, "\n"))
}
