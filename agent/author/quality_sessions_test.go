package author

// A scripted session is what a tester does on one corpus page, as data:
// trusted actions sent through the authoring browser's debugging port,
// then the text the page must show when the flow really worked. Picks are
// elements a picker session picks on the page as it first loads.

// qAct is one trusted action.
type qAct struct {
	// Do is click, dblclick, type (click the field, select its text, type
	// Text), press (Text is the key, as Playwright writes it: Enter,
	// Control+K; on the focused element), select (Text is the option's
	// label), hover, or check (a click on a checkbox or radio).
	Do string
	// Sel is a CSS selector of the element in its document; "host >>>
	// inner" looks inside host's open shadow root. Empty for a press on
	// the page.
	Sel string
	// Frame is the CSS selector of the iframe (in the top document) that
	// holds Sel; empty for the top document.
	Frame string
	Text  string
}

// qWhere names an element: Sel in the document of Frame (see qAct).
type qWhere struct{ Sel, Frame string }

// qSession is one page's scripted session.
type qSession struct {
	Page string
	Acts []qAct
	// Result is the element whose text (contains) Want once the session
	// is done.
	Result qWhere
	Want   string
	Picks  []qWhere
}

func qClick(sel string) qAct             { return qAct{Do: "click", Sel: sel} }
func qType(sel, text string) qAct        { return qAct{Do: "type", Sel: sel, Text: text} }
func qPress(key string) qAct             { return qAct{Do: "press", Text: key} }
func qSelect(sel, label string) qAct     { return qAct{Do: "select", Sel: sel, Text: label} }
func qCheck(sel string) qAct             { return qAct{Do: "check", Sel: sel} }
func qInFrame(frame string, a qAct) qAct { a.Frame = frame; return a }
func qAt(sel string) qWhere              { return qWhere{Sel: sel} }

var qSessions = []qSession{
	{Page: "signin.html",
		Acts:   []qAct{qType("#email", "ann@example.com"), qPress("Tab"), qType("#password", "pw-123"), qClick("button[type=submit]")},
		Result: qAt("#status"), Want: "Welcome, ann@example.com",
		Picks: []qWhere{qAt("#email"), qAt("button[type=submit]"), qAt("input[name=remember]")}},
	{Page: "newsletter.html",
		Acts:   []qAct{qType("[name=first]", "Ann"), qType("[name=mail]", "ann@example.com"), qClick("#sub button")},
		Result: qAt("#done"), Want: "Subscribed Ann <ann@example.com>",
		Picks: []qWhere{qAt("[name=first]"), qAt("[name=mail]")}},
	{Page: "icons.html",
		Acts:   []qAct{qClick("[aria-label=Bold]"), qClick("[aria-label='Delete paragraph']")},
		Result: qAt("#log"), Want: "Delete paragraph applied (2 changes)",
		Picks: []qWhere{qAt("[aria-label=Italic]"), qAt("[aria-label=Undo]")}},
	{Page: "settings.html",
		Acts:   []qAct{qType(".field_k2j9d:nth-child(1) input", "Ann Lee"), qCheck(".field_k2j9d:nth-child(3) input"), qClick(".btn_x7f3a")},
		Result: qAt(".msg_71aa0"), Want: "Saved: Ann Lee, UTC, emails on",
		Picks: []qWhere{qAt(".btn_x7f3a"), qAt(".field_k2j9d:nth-child(2) input"), qAt(".field_k2j9d:nth-child(3) input")}},
	{Page: "table.html",
		Acts:   []qAct{qClick("tbody tr:nth-child(3) .del"), qClick("tbody tr:nth-child(2) .edit")},
		Result: qAt("#msg"), Want: "Editing Bob",
		Picks: []qWhere{qAt("tbody tr:nth-child(2) .edit"), qAt("tbody tr:nth-child(4) .del")}},
	{Page: "hovermenu.html",
		Acts:   []qAct{{Do: "hover", Sel: "#file .trigger"}, qClick("#file li:nth-child(2) a")},
		Result: qAt("#out"), Want: "Export as PDF done",
		Picks: []qWhere{qAt("#file .trigger"), qAt("h1")}},
	// A CSS menu two levels deep: each level opens while its item is
	// hovered (li:hover > ul), so a hover on a submenu's own item replays
	// on a hidden element.
	{Page: "megamenu.html",
		Acts: []qAct{{Do: "hover", Sel: ".menu > li:nth-child(1)"}, qClick("a[href='#laptops']"),
			{Do: "hover", Sel: ".menu > li:nth-child(1) > ul > li:nth-child(2)"}, qClick("a[href='#iphone']")},
		Result: qAt("#out"), Want: "Opened: Laptops, iPhone",
		Picks: []qWhere{qAt("a[href='#products']"), qAt("a[href='#support']")}},
	{Page: "frame-same.html",
		Acts: []qAct{qInFrame("#support", qType("[name=subject]", "Login broken")), qInFrame("#support", qType("[name=message]", "It fails")),
			qInFrame("#support", qClick("button"))},
		Result: qWhere{"#sent", "#support"}, Want: "Ticket sent: Login broken",
		Picks: []qWhere{{"[name=subject]", "#support"}, {"button", "#support"}}},
	{Page: "frame-cross.html",
		Acts: []qAct{qInFrame("#pay", qType("[name=number]", "4242 4242 4242 4242")), qInFrame("#pay", qType("[name=cvc]", "123")),
			qInFrame("#pay", qClick("button"))},
		Result: qWhere{"#paid", "#pay"}, Want: "Paid with card ending 4242",
		Picks: []qWhere{{"[name=number]", "#pay"}, {"button", "#pay"}}},
	{Page: "shadow.html",
		Acts:   []qAct{qClick("qty-picker >>> .inc"), qClick("qty-picker >>> .inc"), qClick("qty-picker >>> .add")},
		Result: qAt("#cart"), Want: "Cart: 3 × Espresso beans",
		Picks: []qWhere{qAt("qty-picker >>> .inc"), qAt("qty-picker >>> .qty"), qAt("qty-picker >>> .add")}},
	// Lit's TodoMVC: the checkbox is three open shadow roots deep.
	{Page: "todo-lit.html",
		Acts: []qAct{qType("todo-app >>> .new-todo", "Buy milk"), qPress("Enter"), qType("todo-app >>> .new-todo", "Walk the dog"),
			qPress("Enter"), qCheck("todo-app >>> todo-list >>> todo-item:nth-of-type(2) >>> .toggle")},
		Result: qAt("todo-app >>> .todo-count"), Want: "1 item left",
		Picks: []qWhere{qAt("todo-app >>> .new-todo"), qAt("todo-app >>> h1")}},
	{Page: "router.html",
		Acts: []qAct{qClick("nav a[href='/router.html/products']"), qClick("#view li:nth-child(2) a"), qClick("#add"),
			qClick("nav a[href='/router.html/cart']")},
		Result: qAt("#items"), Want: "In cart: Teapot",
		Picks: []qWhere{qAt("nav a[href='/router.html/products']"), qAt("nav a[href='/router.html/cart']")}},
	{Page: "delayed.html",
		Acts:   []qAct{qClick("#list button:nth-child(3)")},
		Result: qAt("#opened"), Want: "Opened: Quarterly numbers",
		Picks: []qWhere{qAt("h1")}},
	{Page: "choices.html",
		Acts: []qAct{qSelect("#tier", "Pro"), qCheck("input[value=yearly]"), qCheck("[name=terms]"), qCheck("[name=news]"),
			qClick("#plan button")},
		Result: qAt("#summary"), Want: "Plan pro, billed yearly, no news",
		Picks: []qWhere{qAt("#tier"), qAt("input[value=monthly]"), qAt("[name=terms]")}},
	{Page: "search.html",
		Acts:   []qAct{qType("#q", "shoes"), qPress("Enter")},
		Result: qAt("#count"), Want: `3 results for "shoes"`,
		Picks: []qWhere{qAt("#q")}},
	{Page: "todo.html",
		Acts: []qAct{qType(".new-todo", "Buy milk"), qPress("Enter"), qType(".new-todo", "Walk the dog"), qPress("Enter"),
			qCheck("li:nth-child(1) .toggle")},
		Result: qAt(".todo-count"), Want: "1 item left",
		Picks: []qWhere{qAt(".new-todo")}},
	{Page: "modal.html",
		Acts:   []qAct{qClick("#rename"), qType("#form [name=name]", "Zeus"), qClick("#ok")},
		Result: qAt("#note"), Want: "Renamed to Zeus",
		Picks: []qWhere{qAt("#rename")}},
	{Page: "tabs.html",
		Acts:   []qAct{qClick("#t-billing"), qType("[name=vat]", "BE0123"), qClick(".save")},
		Result: qAt("#saved"), Want: "VAT number saved: BE0123",
		Picks: []qWhere{qAt("#t-general"), qAt("#t-billing"), qAt("[name=nick]")}},
	{Page: "palette.html",
		Acts:   []qAct{qPress("Control+K"), qPress("Escape"), qPress("Control+K"), qType("#cmd", "deploy"), qPress("Enter")},
		Result: qAt("#ran"), Want: "Ran: deploy",
		Picks: []qWhere{qAt("h1")}},
	{Page: "gallery.html",
		Acts:   []qAct{qClick(".next img"), qClick(".next img"), qClick(".prev img"), qClick(".zoom")},
		Result: qAt("#zoom"), Want: "Zoom 125% on page 2",
		Picks: []qWhere{qAt(".next img"), qAt(".prev img"), qAt(".zoom")}},
	{Page: "contact.html",
		Acts: []qAct{qType("[name=name]", "Ann"), qSelect("[name=topic]", "Support"), qType("[name=msg]", "Hello there"),
			qClick("#c button")},
		Result: qAt("#thanks"), Want: "Thanks Ann, Support will answer (11 characters)",
		Picks: []qWhere{qAt("[name=name]"), qAt("[name=topic]"), qAt("[name=msg]")}},
	{Page: "wizard.html",
		Acts: []qAct{qType("[name=ws]", "Acme"), qClick("#s1 .next"), qSelect("[name=size]", "11-50"), qClick("#s2 .next"),
			qClick(".finish")},
		Result: qAt("#result"), Want: "Workspace Acme created for 11-50",
		Picks: []qWhere{qAt("#s1 .next"), qAt("[name=ws]")}},
	{Page: "cards.html",
		Acts:   []qAct{qClick(".card:nth-child(2) button"), qClick(".card:nth-child(4) button")},
		Result: qAt("#basket"), Want: "Basket: 2 items (Chair, Rug)",
		Picks: []qWhere{qAt(".card:nth-child(1) button"), qAt(".card:nth-child(3) h3")}},
	{Page: "rename.html",
		Acts:   []qAct{{Do: "dblclick", Sel: "[data-testid=file-notes]"}},
		Result: qAt("#status"), Want: "Opened notes.txt",
		Picks: []qWhere{qAt("[data-testid=file-report]")}},
	{Page: "links.html",
		Acts:   []qAct{qClick("a[href='article.html?id=shipping']"), qClick("#yes")},
		Result: qAt("#fb"), Want: "Thanks for your feedback on shipping",
		Picks: []qWhere{qAt("a[href='article.html?id=returns']")}},
	{Page: "accordion.html",
		Acts:   []qAct{qClick("[aria-controls=a2]"), qClick("#a2 .helpful")},
		Result: qAt("#votes"), Want: "1 vote",
		Picks: []qWhere{qAt("[aria-controls=a1]"), qAt("[aria-controls=a2]")}},
	{Page: "testids.html",
		Acts: []qAct{qClick("[data-testid=stock-inc]"), qClick("[data-testid=stock-inc]"), qType("[data-testid=stock-note]", "recount"),
			qClick("[data-testid=stock-save]")},
		Result: qAt("[data-testid=stock-result]"), Want: "Stock set to 7 (recount)",
		Picks: []qWhere{qAt("[data-testid=stock-dec]"), qAt("[data-testid=stock-note]")}},
}
