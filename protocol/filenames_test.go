package protocol

import "testing"

func TestWindowsReserved(t *testing.T) {
	for _, name := range []string{"CON", "con", "Con.txt", "PRN", "aux.tar.gz", "NUL", "nul.", "NUL .txt", "COM1", "com9.log", "COM0",
		"LPT1", "lpt5.pdf", "COM¹", "lpt³.txt", "CONIN$", "conout$.x"} {
		if !WindowsReserved(name) {
			t.Errorf("%q: not reserved", name)
		}
	}
	for _, name := range []string{"", "CONSOLE", "icon.png", "CON1", "COM10", "LPT", "COMA", "com1x.txt", "null", "nul_.txt", " CON",
		"report.con", "a.NUL", "COM⁴", "AUXILIARY.txt"} {
		if WindowsReserved(name) {
			t.Errorf("%q: reserved", name)
		}
	}
}
