package protocol

import "strings"

// Project files reach pages under their names, written to disk by agents
// on any OS. These are the names Windows cannot make, so that the hub
// refuses them on upload and an agent cleans those uploaded before the
// rule (docs/files.md).

// WindowsForbidden are the characters Windows refuses in a file name
// (besides / and \ and control characters, refused everywhere).
const WindowsForbidden = `<>:"|?*`

// WindowsReserved reports whether name is one of Windows' device names
// (CON, PRN, AUX, NUL, COM0-9, LPT0-9 and their superscript-digit forms,
// CONIN$, CONOUT$), in any case, with or without an extension:
// "nul.txt" and "Com1.tar.gz" open the device, not a file. Spaces before
// the extension do not count either ("CON .txt").
func WindowsReserved(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) < 4 || stem[:3] != "COM" && stem[:3] != "LPT" {
		return false
	}
	switch d := stem[3:]; d {
	case "¹", "²", "³":
		return true
	default:
		return len(d) == 1 && '0' <= d[0] && d[0] <= '9'
	}
}
