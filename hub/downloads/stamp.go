package downloads

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// HubFile is hub.json, which tells an installed agent its hub.
type HubFile struct {
	Hub string `json:"hub"`
}

// HubFileName is the name of the hub file in a package: beside the agent
// in an archive, /etc/ta-agent/hub.json in a Debian package.
const HubFileName = "hub.json"

// DebHubPath is where a Debian package installs the hub file.
const DebHubPath = "/etc/ta-agent/hub.json"

var stampers = map[string]func([]byte, HubFile) ([]byte, error){
	"tar.gz": stampTarGz,
	"zip":    stampZip,
	"deb":    stampDeb,
}

func hubJSON(h HubFile) []byte {
	data, _ := json.MarshalIndent(h, "", "  ")
	return append(data, '\n')
}

// topDir is the folder every name of an archive starts with ("ta-agent/"),
// or "".
func topDir(names []string) string {
	if len(names) == 0 {
		return ""
	}
	first, _, ok := strings.Cut(strings.TrimPrefix(names[0], "./"), "/")
	if !ok {
		return ""
	}
	for _, n := range names {
		if !strings.HasPrefix(strings.TrimPrefix(n, "./"), first+"/") {
			return ""
		}
	}
	return first + "/"
}

// retar copies a tar stream, without an entry named skip, and calls add
// before the end with the names copied and the newest time among them.
func retar(r io.Reader, w *tar.Writer, skip string, add func(names []string, newest time.Time) error) error {
	tr := tar.NewReader(r)
	var names []string
	var newest time.Time
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if h.Name == skip || strings.TrimPrefix(h.Name, "./") == strings.TrimPrefix(skip, "./") {
			continue
		}
		names = append(names, h.Name)
		newest = later(newest, h.ModTime)
		if err := w.WriteHeader(h); err != nil {
			return err
		}
		if _, err := io.Copy(w, tr); err != nil {
			return err
		}
	}
	return add(names, newest)
}

func addTarFile(w *tar.Writer, name string, data []byte, mod time.Time) error {
	if err := w.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: mod, Format: tar.FormatGNU}); err != nil {
		return err
	}
	_, err := w.Write(data)
	return err
}

// stampTarGz adds hub.json beside the agent in a .tar.gz.
func stampTarGz(raw []byte, h HubFile) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	plain, err := io.ReadAll(zr) // two passes over the tar, one decompression
	if err != nil {
		return nil, err
	}
	var names []string
	var newest time.Time
	{ // the folder is known only from the names: read them first
		tr := tar.NewReader(bytes.NewReader(plain))
		for {
			hd, err := tr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, err
			}
			names = append(names, hd.Name)
			newest = later(newest, hd.ModTime)
		}
	}
	target := topDir(names) + HubFileName
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	err = retar(bytes.NewReader(plain), tw, target, func([]string, time.Time) error { return addTarFile(tw, target, hubJSON(h), stampTime(newest)) })
	if err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// stampZip adds hub.json to a .zip: in an .app bundle's Resources, else
// beside the agent.
func stampZip(raw []byte, h HubFile) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, err
	}
	var names []string
	var newest time.Time
	target := ""
	for _, f := range zr.File {
		names = append(names, f.Name)
		newest = later(newest, f.Modified)
		if app, _, ok := strings.Cut(f.Name, ".app/Contents/"); ok && target == "" {
			target = app + ".app/Contents/Resources/" + HubFileName
		}
	}
	if target == "" {
		target = topDir(names) + HubFileName
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		if f.Name == target {
			continue
		}
		if err := zw.Copy(f); err != nil {
			return nil, err
		}
	}
	w, err := zw.CreateHeader(&zip.FileHeader{Name: target, Method: zip.Deflate, Modified: stampTime(newest)})
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(hubJSON(h)); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// An ar archive (a .deb): a global header, then members, each a 60-byte
// header and its data padded to an even length.
const arMagic = "!<arch>\n"

type arMember struct {
	name string
	hdr  []byte // the original header, kept for its fields
	data []byte
}

func readAr(raw []byte) ([]arMember, error) {
	if !bytes.HasPrefix(raw, []byte(arMagic)) {
		return nil, errors.New("not an ar archive")
	}
	var out []arMember
	p := len(arMagic)
	for p < len(raw) {
		if p+60 > len(raw) {
			return nil, errors.New("truncated ar header")
		}
		hdr := raw[p : p+60]
		if string(hdr[58:60]) != "`\n" {
			return nil, errors.New("bad ar header")
		}
		size, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || size < 0 || p+60+int(size) > len(raw) {
			return nil, errors.New("bad ar member size")
		}
		name := strings.TrimSuffix(strings.TrimSpace(string(hdr[0:16])), "/")
		out = append(out, arMember{name: name, hdr: hdr, data: raw[p+60 : p+60+int(size)]})
		p += 60 + int(size)
		if size%2 == 1 {
			p++
		}
	}
	return out, nil
}

func writeAr(members []arMember) []byte {
	var b bytes.Buffer
	b.WriteString(arMagic)
	for _, m := range members {
		hdr := append([]byte(nil), m.hdr...)
		copy(hdr[48:58], fmt.Sprintf("%-10d", len(m.data)))
		b.Write(hdr)
		b.Write(m.data)
		if len(m.data)%2 == 1 {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// stampDeb adds /etc/ta-agent/hub.json to a Debian package's data.
func stampDeb(raw []byte, h HubFile) ([]byte, error) {
	members, err := readAr(raw)
	if err != nil {
		return nil, err
	}
	for i, m := range members {
		if !strings.HasPrefix(m.name, "data.tar") {
			continue
		}
		if m.name != "data.tar.gz" {
			return nil, fmt.Errorf("%s: only a gzip-compressed data member can take the hub's address", m.name)
		}
		zr, err := gzip.NewReader(bytes.NewReader(m.data))
		if err != nil {
			return nil, err
		}
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		tw := tar.NewWriter(zw)
		target := "." + DebHubPath
		err = retar(zr, tw, target, func(names []string, newest time.Time) error {
			have := map[string]bool{}
			for _, n := range names {
				have[strings.TrimSuffix(strings.TrimPrefix(n, "./"), "/")] = true
			}
			for _, dir := range []string{"etc", "etc/ta-agent"} {
				if !have[dir] {
					if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: "./" + dir + "/", Mode: 0o755, ModTime: stampTime(newest), Format: tar.FormatGNU}); err != nil {
						return err
					}
				}
			}
			return addTarFile(tw, target, hubJSON(h), stampTime(newest))
		})
		if err != nil {
			return nil, err
		}
		if err := tw.Close(); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		members[i].data = out.Bytes()
		return writeAr(members), nil
	}
	return nil, errors.New("no data member")
}
