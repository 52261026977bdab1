//go:build !headless

package tray

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"sync"

	"fyne.io/fyne/v2"

	"github.com/testautomation/ta/agent/client"
)

// The tray icon shows the agent's state with a coloured badge in its
// lower right corner.
const (
	IconOffline    = "offline"    // grey: not connected
	IconConnecting = "connecting" // amber
	IconPairing    = "pairing"    // blue: waiting for approval
	IconIdle       = "idle"       // green
	IconRunning    = "running"    // violet
	IconPaused     = "paused"     // orange
)

var badgeColors = map[string]color.NRGBA{
	IconOffline:    {0x8a, 0x8f, 0x98, 0xff},
	IconConnecting: {0xf2, 0xb1, 0x1b, 0xff},
	IconPairing:    {0x25, 0x63, 0xeb, 0xff},
	IconIdle:       {0x16, 0xa3, 0x4a, 0xff},
	IconRunning:    {0x7c, 0x3a, 0xed, 0xff},
	IconPaused:     {0xea, 0x58, 0x0c, 0xff},
}

// IconState names the icon for a state.
func IconState(st client.State) string {
	switch {
	case st.Phase == "pairing":
		return IconPairing
	case st.Phase == "connecting" || st.Phase == "":
		return IconConnecting
	case st.Phase != "connected":
		return IconOffline
	case st.Runs > 0 || len(st.Current) > 0:
		return IconRunning
	case st.Paused:
		return IconPaused
	default:
		return IconIdle
	}
}

var (
	iconsOnce sync.Once
	icons     map[string]fyne.Resource
)

// StateIcon is the icon for a state's name (IconIdle...); the plain icon
// for an unknown name.
func StateIcon(name string) fyne.Resource {
	iconsOnce.Do(func() {
		icons = map[string]fyne.Resource{}
		base, err := png.Decode(bytes.NewReader(iconPNG))
		if err != nil {
			return
		}
		for n, c := range badgeColors {
			var b bytes.Buffer
			if png.Encode(&b, withBadge(base, c)) == nil {
				icons[n] = fyne.NewStaticResource("testautomation-agent-"+n+".png", b.Bytes())
			}
		}
	})
	if r, ok := icons[name]; ok {
		return r
	}
	return Icon
}

// withBadge draws a filled circle with a white ring over the lower right
// quarter of img.
func withBadge(img image.Image, c color.NRGBA) image.Image {
	b := img.Bounds()
	out := image.NewNRGBA(b)
	draw.Draw(out, b, img, b.Min, draw.Src)
	size := min(b.Dx(), b.Dy())
	r := float64(size) * 0.22
	cx, cy := float64(b.Max.X)-r-float64(size)*0.02, float64(b.Max.Y)-r-float64(size)*0.02
	ring := r + float64(size)*0.04
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			d := dx*dx + dy*dy
			switch {
			case d <= r*r:
				out.SetNRGBA(x, y, c)
			case d <= ring*ring:
				out.SetNRGBA(x, y, color.NRGBA{0xff, 0xff, 0xff, 0xff})
			}
		}
	}
	return out
}
