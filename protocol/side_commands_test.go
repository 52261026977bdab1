package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every command of Selenium IDE's reference (packages/side-model's
// Commands.ts, and the IDE 3 names its code export still reads) imports
// into steps (control flow into blocks, run into a call), but debugger
// and setSpeed, which are left out and named.
func TestImportSideCommandReference(t *testing.T) {
	reference := strings.Fields(`acceptAlert acceptConfirmation addSelection answerPrompt assert assertAlert
		assertChecked assertConfirmation assertEditable assertElementPresent assertElementNotPresent
		assertNotChecked assertNotEditable assertNotSelectedValue assertNotText assertPrompt
		assertSelectedValue assertSelectedLabel assertText assertTitle assertValue dismissConfirmation
		dismissPrompt check click clickAt close debugger do doubleClick doubleClickAt dragAndDropToObject
		echo editContent else elseIf end executeScript executeAsyncScript forEach if mouseDown mouseDownAt
		mouseMoveAt mouseOut mouseOver mouseUp mouseUpAt open pause removeSelection repeatIf run runScript
		select selectFrame selectWindow sendKeys setSpeed setWindowSize store storeAttribute
		storeElementCount storeJson storeText storeTitle storeValue storeWindowHandle times type uncheck
		verify verifyChecked verifyEditable verifyElementPresent verifyElementNotPresent verifyNotChecked
		verifyNotEditable verifyNotSelectedValue verifyNotText verifySelectedLabel verifySelectedValue
		verifyText verifyTitle verifyValue waitForElementEditable waitForElementNotEditable
		waitForElementNotPresent waitForElementNotVisible waitForElementPresent waitForElementVisible
		waitForText while
		answerOnNextPrompt chooseCancelOnNextConfirmation chooseCancelOnNextPrompt chooseOkOnNextConfirmation
		mouseMove storeXpathCount submit webdriverAnswerOnVisiblePrompt
		webdriverChooseCancelOnVisibleConfirmation webdriverChooseCancelOnVisiblePrompt
		webdriverChooseOkOnVisibleConfirmation`)
	args := map[string][2]string{
		"answerPrompt": {"yes", ""}, "assert": {"v", "1"}, "verify": {"v", "1"},
		"assertAlert": {"Sure?", ""}, "assertConfirmation": {"Sure?", ""}, "assertPrompt": {"Name?", ""},
		"clickAt": {"id=x", "1,2"}, "doubleClickAt": {"id=x", "1,2"}, "mouseDownAt": {"id=x", "1,2"},
		"mouseMoveAt": {"id=x", "1,2"}, "mouseUpAt": {"id=x", "1,2"}, "dragAndDropToObject": {"id=x", "id=y"},
		"echo": {"hello ${v}", ""}, "editContent": {"id=x", "text"}, "executeScript": {"return 1", "v"},
		"executeAsyncScript": {"return Promise.resolve(1)", "v"}, "runScript": {"window.x = 1", ""},
		"open": {"/home", ""}, "pause": {"10", ""}, "select": {"id=x", "label=A"},
		"addSelection": {"id=x", "label=A"}, "removeSelection": {"id=x", "value=a"}, "selectFrame": {"index=0", ""},
		"selectWindow": {"handle=${w}", ""}, "sendKeys": {"id=x", "a${KEY_ENTER}"}, "setWindowSize": {"800x600", ""},
		"store": {"1", "v"}, "storeAttribute": {"id=x@href", "v"}, "storeElementCount": {"css=a", "n"},
		"storeXpathCount": {"xpath=//a", "n"}, "storeJson": {`{"a": 1}`, "j"}, "storeText": {"id=x", "v"},
		"storeValue": {"id=x", "v"}, "storeTitle": {"v", ""}, "storeWindowHandle": {"h", ""}, "type": {"id=x", "t"},
		"waitForText": {"id=x", "t"}, "answerOnNextPrompt": {"yes", ""}, "setSpeed": {"100", ""},
		"assertText": {"id=x", "t"}, "assertNotText": {"id=x", "t"}, "assertValue": {"id=x", "t"},
		"assertTitle": {"Home", ""}, "verifyTitle": {"Home", ""},
	}
	skippedWhy := map[string]string{"debugger": "no meaning", "setSpeed": "no meaning"}
	// Control flow comes in whole blocks; run calls another test.
	blocks := map[string][]any{
		"if":       {cmd("if", "${v} > 1", ""), cmd("click", "id=x", ""), cmd("end", "", "")},
		"elseIf":   {cmd("if", "${v} > 1", ""), cmd("elseIf", "${v} > 0", ""), cmd("click", "id=x", ""), cmd("end", "", "")},
		"else":     {cmd("if", "${v} > 1", ""), cmd("else", "", ""), cmd("click", "id=x", ""), cmd("end", "", "")},
		"end":      {cmd("times", "2", ""), cmd("click", "id=x", ""), cmd("end", "", "")},
		"times":    {cmd("times", "2", ""), cmd("click", "id=x", ""), cmd("end", "", "")},
		"while":    {cmd("while", "${v} < 3", "10"), cmd("click", "id=x", ""), cmd("end", "", "")},
		"do":       {cmd("do", "", ""), cmd("click", "id=x", ""), cmd("repeatIf", "${v} < 3", "")},
		"repeatIf": {cmd("do", "", ""), cmd("click", "id=x", ""), cmd("repeatIf", "${v} < 3", "")},
		"forEach":  {cmd("forEach", "list", "v"), cmd("click", "id=x", ""), cmd("end", "", "")},
		"run":      {cmd("run", "Other", "")},
	}
	for _, name := range reference {
		t.Run(name, func(t *testing.T) {
			a, ok := args[name]
			if !ok {
				a = [2]string{"id=x", ""}
			}
			opener := cmd("click", "id=opener", "")
			opener["opensWindow"], opener["windowHandleName"] = true, "w"
			cmds := []any{cmd("open", "/", ""), opener, cmd(name, a[0], a[1])}
			if b, ok := blocks[name]; ok {
				cmds = append(cmds[:2], b...)
			}
			data, _ := json.Marshal(map[string]any{"url": "http://app.test", "tests": []any{
				map[string]any{"name": "T", "commands": cmds},
				map[string]any{"name": "Other", "commands": []any{cmd("click", "id=other", "")}}}})
			docs, skipped, issues := ImportSide(data)
			wantIssues(t, issues)
			if why, ok := skippedWhy[name]; ok {
				wantSkipped(t, skipped, "T#2 "+name+": "+why)
				return
			}
			wantSkipped(t, skipped)
			wantIssues(t, docs[0].Validate())
			if len(docs[0].Steps) < 2 {
				t.Errorf("no step: %+v", docs[0].Steps)
			}
		})
	}
}

// Selenium IDE answers a dialog after the command that opened it; the
// import arms the answer, with the message to expect, just before that
// command. Selenium IDE 3's ...OnNext commands already come before it.
func TestImportSideDialogs(t *testing.T) {
	d := sideProject(t,
		cmd("click", "id=b", ""), cmd("assertPrompt", "test", ""), cmd("dismissPrompt", "", ""),
		cmd("assertTitle", "cancel", ""),
		cmd("click", "id=b", ""), cmd("assertPrompt", "test", ""), cmd("answerPrompt", "", ""),
		cmd("click", "id=b", ""), cmd("answerPrompt", "selenium", ""),
		cmd("clickAt", "id=c", "41,8"), cmd("storeWindowHandle", "root", ""), cmd("assertConfirmation", "Sure?", ""), cmd("webdriverChooseCancelOnVisibleConfirmation", "", ""),
		cmd("chooseCancelOnNextConfirmation", "", ""), cmd("click", "id=c", ""), cmd("assertConfirmation", "Sure?", ""),
		cmd("answerOnNextPrompt", "Ann", ""), cmd("type", "id=q", "x"), cmd("sendKeys", "id=q", "a${KEY_ENTER}"),
		cmd("assertAlert", "hi", ""),
	)
	wantSteps(t, d,
		`{"action":"dismiss","expected":"test","match":"equals","type":"dialog"}`,
		`{"target":"#b","type":"click"}`,
		`{"expected":"cancel","match":"equals","type":"assertTitle"}`,
		`{"action":"accept","expected":"test","match":"equals","text":"","type":"dialog"}`,
		`{"target":"#b","type":"click"}`,
		`{"action":"accept","text":"selenium","type":"dialog"}`,
		`{"target":"#b","type":"click"}`,
		`{"action":"dismiss","expected":"Sure?","match":"equals","type":"dialog"}`,
		`{"position":{"x":41,"y":8},"target":"#c","type":"click"}`,
		`{"action":"dismiss","expected":"Sure?","match":"equals","type":"dialog"}`,
		`{"target":"#c","type":"click"}`,
		`{"action":"accept","text":"Ann","type":"dialog"}`,
		`{"target":"#q","type":"fill","value":"x"}`,
		`{"key":"a","target":"#q","type":"press"}`,
		`{"action":"accept","expected":"hi","match":"equals","type":"dialog"}`,
		`{"key":"Enter","target":"#q","type":"press"}`,
	)
	// With no command before it there is no dialog to answer.
	data := `{"tests":[{"name":"T","commands":[{"command":"acceptAlert","target":""},{"command":"open","target":"http://a.test"}]}]}`
	_, skipped, _ := ImportSide([]byte(data))
	wantSkipped(t, skipped, "T#0 acceptAlert: earlier command that opens the dialog")
}

// selectWindow by the handle of a window a click opened, or one stored
// by storeWindowHandle, becomes switchTab; close becomes closeTab.
func TestImportSideWindows(t *testing.T) {
	opens := func(target, handle string) map[string]any {
		c := cmd("click", target, "")
		c["opensWindow"], c["windowHandleName"] = true, handle
		return c
	}
	d := sideProject(t,
		cmd("open", "/windows.html", ""), opens("linkText=open new window", "win1"),
		cmd("storeWindowHandle", "root", ""), cmd("selectWindow", "handle=${win1}", ""),
		cmd("assertTitle", "", ""), cmd("close", "", ""), cmd("selectWindow", "handle=${root}", ""),
		opens("id=help", "win2"), cmd("selectWindow", "handle=${win2}", ""), cmd("selectWindow", "handle=${root}", ""),
		cmd("selectWindow", "handle=${win2}", ""), opens("id=more", "win3"), cmd("selectWindow", "handle=${win3}", ""),
		cmd("selectWindow", "handle=${root}", ""), cmd("selectWindow", "title=Help", ""), cmd("setWindowSize", "1200x904", ""),
	)
	wantSteps(t, d,
		`{"type":"navigate","url":"http://app.test/windows.html"}`,
		`{"target":"open new window","type":"click"}`,
		`{"to":"new","type":"switchTab"}`,
		`{"expected":"","match":"equals","type":"assertTitle"}`,
		`{"type":"closeTab"}`,
		`{"target":"#help","type":"click"}`,
		`{"to":"new","type":"switchTab"}`,
		`{"to":"opener","type":"switchTab"}`,
		`{"index":2,"to":"index","type":"switchTab"}`,
		`{"target":"#more","type":"click"}`,
		`{"to":"new","type":"switchTab"}`,
		`{"index":0,"to":"index","type":"switchTab"}`,
		`{"match":"equals","title":"Help","to":"match","type":"switchTab"}`,
		`{"height":904,"type":"setViewport","width":1200}`,
	)
	data := `{"tests":[{"name":"T","commands":[{"command":"open","target":"http://a.test"},{"command":"selectWindow","target":"handle=${nope}"},
		{"command":"selectWindow","target":"name=x"},{"command":"storeWindowHandle","target":""}]}]}`
	_, skipped, _ := ImportSide([]byte(data))
	wantSkipped(t, skipped, "T#1 selectWindow: ${nope} was not stored", "T#2 selectWindow: not supported", "T#3 storeWindowHandle: variable name")
}

// Assertions keep what Selenium checks: not, soft for verify, the
// selected option, presence; stores read what they name.
func TestImportSideAssertionsAndStores(t *testing.T) {
	d := sideProject(t,
		cmd("assertNotText", "id=b", "x"), cmd("verifyText", "id=b", "y"), cmd("assertNotChecked", "id=f", ""),
		cmd("verifyEditable", "id=e", ""), cmd("assertSelectedLabel", "id=s", "One"), cmd("assertSelectedValue", "id=s", "1"),
		cmd("verifyNotSelectedValue", "id=s", "2"), cmd("assertElementPresent", "id=p", ""), cmd("assertElementNotPresent", "id=t", ""),
		cmd("storeAttribute", "id=test-id-1@style", "var1"), cmd("storeElementCount", "xpath=//span", "n"),
		cmd("storeValue", "id=v", "v"), cmd("storeTitle", "t", ""), cmd("assert", "n", "10"), cmd("echo", "n is ${n}", ""),
		cmd("waitForElementEditable", "id=e", "500"), cmd("waitForElementNotEditable", "id=e", ""),
		cmd("mouseDownAt", "id=a", "0,0"), cmd("mouseUp", "id=a", ""), cmd("dragAndDropToObject", "id=d", "id=z"),
		cmd("type", "css=input", "blah${KEY_ENTER}"), cmd("editContent", "id=c", "hi"),
	)
	wantSteps(t, d,
		`{"expected":"x","match":"equals","not":true,"target":"#b","type":"assertText"}`,
		`{"expected":"y","match":"equals","soft":true,"target":"#b","type":"assertText"}`,
		`{"checked":false,"target":"#f","type":"assertChecked"}`,
		`{"soft":true,"target":"#e","type":"assertEditable"}`,
		`{"by":"label","expected":"One","target":"#s","type":"assertSelected"}`,
		`{"by":"value","expected":"1","target":"#s","type":"assertSelected"}`,
		`{"expected":"2","match":"equals","not":true,"soft":true,"target":"#s","type":"assertValue"}`,
		`{"state":"attached","target":"#p","type":"waitFor"}`,
		`{"expected":0,"target":"#t","type":"assertCount"}`,
		`{"attribute":"style","from":"attribute","name":"var1","target":"#test-id-1","type":"setVariable"}`,
		`{"from":"count","name":"n","target":"//span","type":"setVariable"}`,
		`{"from":"value","name":"v","target":"#v","type":"setVariable"}`,
		`{"from":"title","name":"t","type":"setVariable"}`,
		`{"expected":"10","match":"equals","name":"n","type":"assertVariable"}`,
		`{"message":"n is ${n}","type":"log"}`,
		`{"state":"editable","target":"#e","timeoutMs":500,"type":"waitFor"}`,
		`{"state":"readonly","target":"#e","type":"waitFor"}`,
		`{"action":"down","position":{"x":0,"y":0},"target":"#a","type":"mouse"}`,
		`{"action":"up","target":"#a","type":"mouse"}`,
		`{"target":"#d","to":"#z","type":"dragTo"}`,
		`{"target":"input","type":"fill","value":"blah"}`,
		`{"key":"Enter","target":"input","type":"press"}`,
		`{"target":"#c","type":"fill","value":"hi"}`,
	)
}

// ${KEY_...} in sendKeys and in typed text become key presses, by
// selenium-webdriver's names and Selenium IDE 3's short ones.
func TestImportSideKeys(t *testing.T) {
	d := sideProject(t,
		cmd("sendKeys", "id=q", "${KEY_ARROW_DOWN}${KEY_NUMPAD5}${KEY_BKSP}${KEY_ENTER}"),
		cmd("type", "id=q", "a${KEY_TAB}b"),
	)
	wantSteps(t, d,
		`{"key":"ArrowDown","target":"#q","type":"press"}`,
		`{"key":"5","target":"#q","type":"press"}`,
		`{"key":"Backspace","target":"#q","type":"press"}`,
		`{"key":"Enter","target":"#q","type":"press"}`,
		`{"target":"#q","type":"fill","value":"a"}`,
		`{"key":"Tab","target":"#q","type":"press"}`,
		`{"key":"b","target":"#q","type":"press"}`,
	)
	data := `{"tests":[{"name":"T","commands":[{"command":"type","target":"id=q","value":"x${KEY_HYPER}"},{"command":"open","target":"http://a.test"}]}]}`
	_, skipped, _ := ImportSide([]byte(data))
	wantSkipped(t, skipped, "T#0 type: ${KEY_HYPER} is not supported")
}

// mouseOut leaves the element for the page's corner and says so.
func TestImportSideMouseOut(t *testing.T) {
	c := cmd("mouseOut", "id=a", "")
	c["comment"] = "leave the menu"
	d := sideProject(t, cmd("mouseOver", "id=a", ""), c)
	wantSteps(t, d,
		`{"target":"#a","type":"hover"}`,
		`{"action":"move","description":"leave the menu\nmouseOut id=a: off the element, to the page's top left corner","position":{"x":0,"y":0},"type":"mouse"}`,
	)
}

// What no step expresses runs as a script on the page that finds the
// element itself: select by index= or id=, add/removeSelection, submit.
func TestImportSidePageScripts(t *testing.T) {
	d := sideProject(t,
		cmd("select", "id=select", "index=2"), cmd("addSelection", "xpath=//select[@multiple]", "value=saab"),
		cmd("removeSelection", "id=mult", "Volvo"), cmd("submit", "css=form input", ""),
	)
	want := []string{
		`document.querySelector('#select')`, `String(o.index) === '2'`, `o.selected = true;`,
		`document.evaluate('//select[@multiple]'`, `o.value === 'saab'`,
		`o.label.trim() === 'Volvo'`, `o.selected = false;`,
		`document.querySelector('form input')`, `form.submit();`,
	}
	var code string
	for _, s := range d.Steps {
		if s.Type != "script" {
			t.Errorf("step %+v", s)
		}
		code += s.Code + "\n"
	}
	for _, w := range want {
		if !strings.Contains(code, w) {
			t.Errorf("the scripts lack %s:\n%s", w, code)
		}
	}
	// In a frame, or by a locator a script cannot use, they are left out.
	data := `{"tests":[{"name":"T","commands":[{"command":"open","target":"http://a.test"},{"command":"selectFrame","target":"index=0"},
		{"command":"submit","target":"id=f"},{"command":"selectFrame","target":"relative=top"},{"command":"submit","target":"linkText=Go"},
		{"command":"removeSelection","target":"id=${list}","value":"A"}]}]}`
	_, skipped, _ := ImportSide([]byte(data))
	wantSkipped(t, skipped, "T#2 submit: inside a frame", "T#4 submit: css= or xpath=", "T#5 removeSelection: without ${...}")
}
