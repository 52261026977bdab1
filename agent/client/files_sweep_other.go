//go:build !unix

package client

import "io/fs"

// ownedByMe: on Windows the temporary folder is the user's own
// (%LOCALAPPDATA%\Temp), so what is in it is theirs.
func ownedByMe(fs.FileInfo) bool { return true }
