package installer

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The Windows agent: a per-user NSIS installer (no administrator rights
// needed) that puts ta-agent.exe in %LOCALAPPDATA%\Programs\TA Agent, adds
// a Start-menu entry, starts the agent at login (HKCU Run), registers an
// uninstaller in Apps & features, and writes hub.json beside the agent
// from /HUB=<address> or the address the user confirms on its Hub page.
// Upgrading over an older version stops the running agent and replaces it;
// the user's pairing (in %APPDATA%\testautomation-agent) stays, also after
// an uninstall, as with any application's settings.

// nsisScript is the installer's NSIS source; %s are filled by WindowsInstaller.
const nsisScript = `Unicode true
!include "MUI2.nsh"
!include "FileFunc.nsh"
!include "nsDialogs.nsh"
!include "LogicLib.nsh"

Name "Test Automation Agent"
OutFile "{{OUT}}"
InstallDir "$LOCALAPPDATA\Programs\TA Agent"
InstallDirRegKey HKCU "Software\testautomation\agent" "InstallDir"
RequestExecutionLevel user
SetCompressor /SOLID lzma
VIProductVersion "{{VERSION4}}"
VIAddVersionKey "ProductName" "Test Automation Agent"
VIAddVersionKey "FileDescription" "Test Automation Agent installer"
VIAddVersionKey "FileVersion" "{{VERSION}}"
VIAddVersionKey "ProductVersion" "{{VERSION}}"
VIAddVersionKey "CompanyName" "testautomation"
VIAddVersionKey "LegalCopyright" "testautomation"

Var Hub
Var HubField

!define MUI_FINISHPAGE_RUN "$INSTDIR\ta-agent.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start the agent now (it shows a pairing code for your hub)"
!insertmacro MUI_PAGE_WELCOME
Page custom HubPage HubPageLeave
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Function .onInit
	${GetParameters} $0
	ClearErrors
	${GetOptions} $0 "/HUB=" $Hub
	${If} ${Errors}
		StrCpy $Hub ""
	${EndIf}
FunctionEnd

Function HubPage
	!insertmacro MUI_HEADER_TEXT "Your hub" "The address of the test automation hub this computer runs tests for."
	nsDialogs::Create 1018
	Pop $0
	${NSD_CreateLabel} 0 0 100% 24u "Hub address (the page you downloaded the agent from), e.g. https://tests.example.com"
	Pop $0
	${NSD_CreateText} 0 28u 100% 12u "$Hub"
	Pop $HubField
	nsDialogs::Show
FunctionEnd

Function HubPageLeave
	${NSD_GetText} $HubField $Hub
	StrCpy $0 $Hub 7
	StrCpy $1 $Hub 8
	${If} $0 != "http://"
	${AndIf} $1 != "https://"
		MessageBox MB_ICONEXCLAMATION "Enter the hub's address, starting with http:// or https://"
		Abort
	${EndIf}
FunctionEnd

Section "Agent" SecAgent
	SetOutPath "$INSTDIR"
	; an older agent may be running: stop it so its file can be replaced
	nsExec::Exec 'taskkill /IM ta-agent.exe /F'
	Sleep 500
	File "{{EXE}}"
	${If} $Hub != ""
		FileOpen $0 "$INSTDIR\hub.json" w
		FileWrite $0 '{"hub": "$Hub"}$\r$\n'
		FileClose $0
	${EndIf}
	WriteUninstaller "$INSTDIR\uninstall.exe"
	CreateShortcut "$SMPROGRAMS\Test Automation Agent.lnk" "$INSTDIR\ta-agent.exe"
	WriteRegStr HKCU "Software\Microsoft\Windows\CurrentVersion\Run" "ta-agent" '"$INSTDIR\ta-agent.exe"'
	WriteRegStr HKCU "Software\testautomation\agent" "InstallDir" "$INSTDIR"
	!define UNINST "Software\Microsoft\Windows\CurrentVersion\Uninstall\ta-agent"
	WriteRegStr HKCU "${UNINST}" "DisplayName" "Test Automation Agent"
	WriteRegStr HKCU "${UNINST}" "DisplayVersion" "{{VERSION}}"
	WriteRegStr HKCU "${UNINST}" "Publisher" "testautomation"
	WriteRegStr HKCU "${UNINST}" "DisplayIcon" "$INSTDIR\ta-agent.exe"
	WriteRegStr HKCU "${UNINST}" "InstallLocation" "$INSTDIR"
	WriteRegStr HKCU "${UNINST}" "UninstallString" '"$INSTDIR\uninstall.exe"'
	WriteRegStr HKCU "${UNINST}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
	WriteRegDWORD HKCU "${UNINST}" "NoModify" 1
	WriteRegDWORD HKCU "${UNINST}" "NoRepair" 1
	${If} ${Silent}
		Exec '"$INSTDIR\ta-agent.exe"'
	${EndIf}
SectionEnd

Section "Uninstall"
	nsExec::Exec 'taskkill /IM ta-agent.exe /F'
	Sleep 500
	Delete "$INSTDIR\ta-agent.exe"
	Delete "$INSTDIR\hub.json"
	Delete "$INSTDIR\uninstall.exe"
	RMDir "$INSTDIR"
	Delete "$SMPROGRAMS\Test Automation Agent.lnk"
	DeleteRegValue HKCU "Software\Microsoft\Windows\CurrentVersion\Run" "ta-agent"
	DeleteRegKey HKCU "Software\Microsoft\Windows\CurrentVersion\Uninstall\ta-agent"
	DeleteRegKey HKCU "Software\testautomation\agent"
	DeleteRegKey /ifempty HKCU "Software\testautomation"
SectionEnd
`

// Signer signs Windows executables with osslsigncode.
type Signer struct {
	Cert, Key, Password string // PEM files, or Cert a .p12/.pfx bundle
	// CA verifies the signature: the development certificate itself when
	// it is self-signed; "" trusts the system's roots.
	CA string
}

// SignerFromEnv uses AGENT_SIGN_CERT, AGENT_SIGN_KEY and
// AGENT_SIGN_PASSWORD when set, else creates a self-signed development
// code-signing certificate in dir (a signature users' Windows will not
// trust, but a real one: it shows the file was not changed).
func SignerFromEnv(dir string) (Signer, bool, error) {
	if c := os.Getenv("AGENT_SIGN_CERT"); c != "" {
		return Signer{Cert: c, Key: os.Getenv("AGENT_SIGN_KEY"), Password: os.Getenv("AGENT_SIGN_PASSWORD"), CA: os.Getenv("AGENT_SIGN_CA")}, false, nil
	}
	s, err := devSignerIn(dir)
	return s, true, err
}

// devSignerIn is the development certificate in dir, made when there is
// none or it expires within a month; the same one build after build, so a
// user who trusted it does not have to again.
func devSignerIn(dir string) (Signer, error) {
	s := Signer{Cert: filepath.Join(dir, "dev-sign.crt"), Key: filepath.Join(dir, "dev-sign.key")}
	s.CA = s.Cert
	if data, err := os.ReadFile(s.Cert); err == nil {
		if _, err := os.Stat(s.Key); err == nil {
			if b, _ := pem.Decode(data); b != nil {
				if c, err := x509.ParseCertificate(b.Bytes); err == nil && time.Until(c.NotAfter) > 30*24*time.Hour {
					return s, nil
				}
			}
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Signer{}, err
	}
	return DevSigner(dir)
}

// DevSigner writes a self-signed code-signing certificate and its key to
// dir.
func DevSigner(dir string) (Signer, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Signer{}, err
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "Test Automation Agent (development)", Organization: []string{"testautomation"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().AddDate(2, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return Signer{}, err
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return Signer{}, err
	}
	s := Signer{Cert: filepath.Join(dir, "dev-sign.crt"), Key: filepath.Join(dir, "dev-sign.key")}
	s.CA = s.Cert
	if err := os.WriteFile(s.Cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return Signer{}, err
	}
	return s, os.WriteFile(s.Key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600)
}

// Sign signs in into out and verifies the signature.
func (s Signer) Sign(ctx context.Context, in, out, description string) error {
	args := []string{"sign", "-h", "sha256", "-n", description}
	if strings.HasSuffix(s.Cert, ".p12") || strings.HasSuffix(s.Cert, ".pfx") {
		args = append(args, "-pkcs12", s.Cert)
	} else {
		args = append(args, "-certs", s.Cert, "-key", s.Key)
	}
	if s.Password != "" {
		args = append(args, "-pass", s.Password)
	}
	_ = os.Remove(out)
	args = append(args, "-in", in, "-out", out)
	if msg, err := exec.CommandContext(ctx, "osslsigncode", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("osslsigncode sign: %v\n%s", err, msg)
	}
	return s.Verify(ctx, out)
}

// Verify checks a file's Authenticode signature.
func (s Signer) Verify(ctx context.Context, file string) error {
	args := []string{"verify", "-in", file}
	if s.CA != "" {
		args = append(args, "-CAfile", s.CA)
	}
	msg, err := exec.CommandContext(ctx, "osslsigncode", args...).CombinedOutput()
	if err != nil || !strings.Contains(string(msg), "Signature verification: ok") {
		return fmt.Errorf("osslsigncode verify %s: %v\n%s", filepath.Base(file), err, msg)
	}
	return nil
}

// version4 is a version as the four numbers Windows resources take.
func version4(v string) string {
	core, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	for len(parts) < 4 {
		parts = append(parts, "0")
	}
	return strings.Join(parts[:4], ".")
}

// WindowsInstaller packages exe (the agent) as an NSIS installer at out,
// signing the agent and the installer with s.
func WindowsInstaller(ctx context.Context, exe, out, version string, s Signer) error {
	if _, err := exec.LookPath("makensis"); err != nil {
		return errors.New("makensis is missing: apt-get install nsis")
	}
	work, err := os.MkdirTemp("", "ta-nsis-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	agent := filepath.Join(work, "ta-agent.exe")
	if err := s.Sign(ctx, exe, agent, "Test Automation Agent"); err != nil {
		return err
	}
	unsigned := filepath.Join(work, "setup.exe")
	script := strings.NewReplacer("{{OUT}}", unsigned, "{{EXE}}", agent, "{{VERSION}}", version, "{{VERSION4}}", version4(version)).Replace(nsisScript)
	nsi := filepath.Join(work, "agent.nsi")
	if err := os.WriteFile(nsi, []byte(script), 0o644); err != nil {
		return err
	}
	if msg, err := exec.CommandContext(ctx, "makensis", "-V2", "-INPUTCHARSET", "UTF8", nsi).CombinedOutput(); err != nil {
		return fmt.Errorf("makensis: %v\n%s", err, msg)
	}
	return s.Sign(ctx, unsigned, out, "Test Automation Agent installer")
}
