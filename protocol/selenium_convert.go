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
}

// converter turns Selenium commands into steps. Selenium's selectFrame is
// a state, so the converter keeps the current frame and puts it into the
// targets of later steps. Comment-only and disabled rows become words in
// the next step's description; setWindowSize words in the document's.
type converter struct {
	baseURL string // a .side project's url, for relative open targets
	frames  []Locator
	pending []string // words for the next step's description
	notes   []string // words for the document's description
	steps   []Step
	issues  issueList
}

type commandFunc func(c *converter, cmd seCommand) []Step

// commands maps lower-cased Selenium IDE command names to conversions.
var commands = map[string]commandFunc{
	"open":                        (*converter).open,
	"click":                       act("click"),
	"clickat":                     act("click"),
	"clickandwait":                act("click"),
	"doubleclick":                 act("dblclick"),
	"doubleclickat":               act("dblclick"),
	"doubleclickandwait":          act("dblclick"),
	"mouseover":                   act("hover"),
	"check":                       act("check"),
	"uncheck":                     act("uncheck"),
	"type":                        (*converter).fill,
	"sendkeys":                    (*converter).sendKeys,
	"select":                      (*converter).selectOption,
	"selectandwait":               (*converter).selectOption,
	"asserttext":                  assertEl("assertText"),
	"verifytext":                  assertEl("assertText"),
	"assertvalue":                 assertEl("assertValue"),
	"verifyvalue":                 assertEl("assertValue"),
	"assertselectedvalue":         assertEl("assertValue"),
	"verifyselectedvalue":         assertEl("assertValue"),
	"asserttitle":                 (*converter).assertTitle,
	"verifytitle":                 (*converter).assertTitle,
	"assertelementpresent":        act("assertVisible"),
	"verifyelementpresent":        act("assertVisible"),
	"assertvisible":               act("assertVisible"),
	"verifyvisible":               act("assertVisible"),
	"assertelementnotpresent":     act("assertHidden"),
	"verifyelementnotpresent":     act("assertHidden"),
	"assertnotvisible":            act("assertHidden"),
	"verifynotvisible":            act("assertHidden"),
	"waitforelementvisible":       waitFor("visible"),
	"waitforelementpresent":       waitFor("attached"),
	"waitforelementnotvisible":    waitFor("hidden"),
	"waitforelementnotpresent":    waitFor("detached"),
	"pause":                       (*converter).pause,
	"executescript":               script(true),
	"runscript":                   script(false),
	"store":                       (*converter).store,
	"storetext":                   (*converter).storeText,
	"storetitle":                  (*converter).storeTitle,
	"captureentirepagescreenshot": (*converter).screenshot,
	"selectframe":                 (*converter).selectFrame,
	"setwindowsize":               (*converter).windowSize,
}

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
		c.issues.add(cmd.Path+".command", CodeUnsupported, "Selenium IDE command %q is not supported", clip(name, 40))
		return
	}
	before := len(c.issues)
	steps := fn(c, cmd)
	if len(steps) == 0 {
		if len(c.issues) == before {
			c.note(cmd.Comment) // a command without a step of its own, such as selectFrame
		}
		return
	}
	c.note(cmd.Comment)
	steps[0].Description = strings.Join(c.pending, "\n")
	steps[0].ID = cmd.ID
	c.pending = nil
	c.steps = append(c.steps, steps...)
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
	return &Target{Locators: append([]Locator{primary}, alts...), Frame: slices.Clone(c.frames)}
}

func (t *Target) clone() *Target {
	return &Target{Locators: slices.Clone(t.Locators), Frame: slices.Clone(t.Frame), Fingerprint: t.Fingerprint}
}

// finish returns the steps; words still pending (a trailing comment)
// go to the last step's description, or the document's when no step.
func (c *converter) finish() []Step {
	if len(c.pending) > 0 && len(c.steps) > 0 {
		last := &c.steps[len(c.steps)-1]
		last.Description = strings.TrimSpace(last.Description + "\n" + strings.Join(c.pending, "\n"))
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
