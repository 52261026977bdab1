package protocol

import (
	"slices"
	"strings"
)

// Device is a named profile a run may emulate (the run option device): the
// agent applies it to every page of the run before the first step. The
// figures are the devices' public specifications: the screen in CSS pixels
// and its pixel ratio. The viewport is the whole screen (the browser's own
// bars are not emulated), in portrait.
type Device struct {
	Name              string  `json:"name"`
	Width             int     `json:"width"`  // CSS pixels
	Height            int     `json:"height"` // CSS pixels
	DeviceScaleFactor float64 `json:"deviceScaleFactor"`
	IsMobile          bool    `json:"isMobile"` // a mobile viewport: meta viewport honoured, overlay scrollbars
	HasTouch          bool    `json:"hasTouch"`
	UserAgent         string  `json:"userAgent"`
}

// User agents of the browsers the profiles stand for: Safari on iOS and
// iPadOS, Chrome on Android.
const (
	uaIPhone  = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
	uaIPad    = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
	uaAndroid = "Mozilla/5.0 (Linux; Android %s; %s) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
	uaAndTab  = "Mozilla/5.0 (Linux; Android %s; %s) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)

func phone(name string, w, h int, dpr float64, ua string) Device {
	return Device{Name: name, Width: w, Height: h, DeviceScaleFactor: dpr, IsMobile: true, HasTouch: true, UserAgent: ua}
}

func android(name, version, model string, w, h int, dpr float64, tablet bool) Device {
	ua := uaAndroid
	if tablet {
		ua = uaAndTab
	}
	return phone(name, w, h, dpr, strings.Replace(strings.Replace(ua, "%s", version, 1), "%s", model, 1))
}

// devices is the table, in the order the Run dialog lists it.
var devices = []Device{
	phone("iPhone SE", 375, 667, 2, uaIPhone),
	phone("iPhone 12", 390, 844, 3, uaIPhone),
	phone("iPhone 12 Mini", 375, 812, 3, uaIPhone),
	phone("iPhone 12 Pro", 390, 844, 3, uaIPhone),
	phone("iPhone 12 Pro Max", 428, 926, 3, uaIPhone),
	phone("iPhone 13", 390, 844, 3, uaIPhone),
	phone("iPhone 13 Mini", 375, 812, 3, uaIPhone),
	phone("iPhone 13 Pro", 390, 844, 3, uaIPhone),
	phone("iPhone 13 Pro Max", 428, 926, 3, uaIPhone),
	phone("iPhone 14", 390, 844, 3, uaIPhone),
	phone("iPhone 14 Plus", 428, 926, 3, uaIPhone),
	phone("iPhone 14 Pro", 393, 852, 3, uaIPhone),
	phone("iPhone 14 Pro Max", 430, 932, 3, uaIPhone),
	phone("iPhone 15", 393, 852, 3, uaIPhone),
	phone("iPhone 15 Plus", 430, 932, 3, uaIPhone),
	phone("iPhone 15 Pro", 393, 852, 3, uaIPhone),
	phone("iPhone 15 Pro Max", 430, 932, 3, uaIPhone),
	android("Pixel 5", "11", "Pixel 5", 393, 851, 2.75, false),
	android("Pixel 7", "14", "Pixel 7", 412, 915, 2.625, false),
	android("Galaxy S8", "9", "SM-G950F", 360, 740, 3, false),
	android("Galaxy S9+", "10", "SM-G965F", 320, 658, 4.5, false),
	phone("iPad (gen 7)", 810, 1080, 2, uaIPad),
	phone("iPad Mini", 768, 1024, 2, uaIPad),
	phone("iPad Pro 11", 834, 1194, 2, uaIPad),
	android("Galaxy Tab S4", "10", "SM-T830", 712, 1138, 2.25, true),
}

// Devices lists the profiles a run may emulate.
func Devices() []Device { return slices.Clone(devices) }

// DeviceNames lists the profiles' names, in the table's order.
func DeviceNames() []string {
	names := make([]string, len(devices))
	for i, d := range devices {
		names[i] = d.Name
	}
	return names
}

// DeviceByName finds a profile by its exact name.
func DeviceByName(name string) (Device, bool) {
	i := slices.IndexFunc(devices, func(d Device) bool { return d.Name == name })
	if i < 0 {
		return Device{}, false
	}
	return devices[i], true
}
