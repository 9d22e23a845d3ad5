# Build IdeA for Windows: PyInstaller one-dir bundle with WebView2 (pywebview's EdgeChromium
# backend) and pywinpty, zipped. Same spec as Linux (build/pyinstaller/idea.spec).
#   powershell -ExecutionPolicy Bypass -File build\windows\build.ps1
# Needs Python 3.11+ (py launcher), Node 20+ and npm. The WebView2 runtime ships with Windows 10
# (since 21H1) and 11; on older systems install the Evergreen runtime from Microsoft.
# Outputs, under build\out\ (or $env:IDEA_BUILD_OUT):
#   dist\idea\IdeA.exe       double-click target (no console window)
#   dist\idea\idea-cli.exe   the same program with a console (idea-cli.exe --help, subcommands)
#   IdeA-windows-x64.zip     the folder above, zipped
$ErrorActionPreference = "Stop"
$repo = (Resolve-Path "$PSScriptRoot\..\..").Path
Set-Location $repo
$out = if ($env:IDEA_BUILD_OUT) { $env:IDEA_BUILD_OUT } else { Join-Path $repo "build\out" }
New-Item -ItemType Directory -Force -Path $out | Out-Null

function Invoke-Checked([string]$exe, [string[]]$arguments) {
    & $exe @arguments
    if ($LASTEXITCODE -ne 0) { throw "$exe $($arguments -join ' ') failed ($LASTEXITCODE)" }
}

# 1. Python venv with the app and PyInstaller (pywebview + pythonnet + pywinpty on Windows).
$py = Join-Path $repo ".venv\Scripts\python.exe"
if (-not (Test-Path $py)) { Invoke-Checked "py" @("-3", "-m", "venv", ".venv") }
Invoke-Checked $py @("-m", "pip", "install", "-q", "--upgrade", "pip")
Invoke-Checked $py @("-m", "pip", "install", "-q", "-e", ".[build]")

# 2. The UI (web\dist).
Push-Location web
try {
    Invoke-Checked "npm.cmd" @("ci", "--no-audit", "--no-fund", "--loglevel=error")
    Invoke-Checked "npm.cmd" @("run", "build")
} finally { Pop-Location }

# 3. Icon (build\out\icons\idea.ico, read by the spec), then the bundle.
Invoke-Checked $py @("build\icons.py", (Join-Path $repo "build\out\icons"))
Invoke-Checked $py @("-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
    "--distpath", (Join-Path $out "dist"), "--workpath", (Join-Path $out "work"),
    "build\pyinstaller\idea.spec")

# 4. Smoke test: every subcommand of the frozen executable answers --help.
$cli = Join-Path $out "dist\idea\idea-cli.exe"
$names = & $py -c "import argparse; from app.cli import build_parser; print(' '.join(next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices))"
Invoke-Checked $cli @("--help") | Out-Null
foreach ($name in $names.Split(" ")) { Invoke-Checked $cli @($name, "--help") | Out-Null }
Write-Host "[build] subcommands answer --help: $names"

# 5. Zip.
$zip = Join-Path $out "IdeA-windows-x64.zip"
if (Test-Path $zip) { Remove-Item $zip }
Compress-Archive -Path (Join-Path $out "dist\idea") -DestinationPath $zip
$size = [math]::Round((Get-ChildItem -Recurse (Join-Path $out "dist\idea") | Measure-Object -Sum Length).Sum / 1MB)
Write-Host "[build] bundle: $size MB; zip: $zip"
