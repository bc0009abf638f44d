"""Checks of deploy/Dockerfile (and .dockerignore), run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.dockerfile ROOT [--binary PATH]

- the image: a build stage FROM swift:<version>-<distro> and a separate runtime stage on the same
  release (debian/ubuntu with --static-swift-stdlib, or swift:<same version>-<release>-slim); the
  runtime installs librdkafka1, zlib1g, libjemalloc2, libcurl4, ca-certificates and tzdata explicitly; only
  `swift build -c release --product switchboard`; no strip; SWIFT_BACKTRACE with the static
  backtracer copied where it says; the resources bundles, the entrypoint, the flows; no
  Package.resolved; .dockerignore excludes .build, .data, .artifacts, Package.resolved
  and .env;
- Swift: the image's version >= the swift-tools-version of every dependency's manifest (the one
  SwiftPM picks for that toolchain): from .build/checkouts after a build, else the newest tag
  satisfying each requirement Package.swift (and, in turn, each dependency) names, read from the
  local package mirrors git's url.<base>.insteadOf points at;
- with --binary PATH: every shared library of `ldd PATH` belongs to a Debian package that the
  runtime stage's packages (with their dependencies) provide, and the ones the binary links
  directly (or through the statically linked Swift runtime) are installed by name. Without a
  binary this check is skipped with a message.

Parsing, the non-root USER and apt hygiene are deploycheck.tools' (hadolint, checkov).

Prints each check's summary; exits 1 with the list of problems.
"""

import argparse
import json
import os
import re
import subprocess
import sys

from .common import Report, read

D = "dockerfile"
F = "deploy/Dockerfile"
RUNTIME_PACKAGES = (("librdkafka1", "Kafka"), ("zlib1g", "zlib"), ("libjemalloc2", "malloc"), ("libcurl4", "FoundationNetworking loads libcurl"),
                    ("ca-certificates", "TLS to Kafka and PostgreSQL"), ("tzdata", "the floor's time zone"))
REQUIRED_LINES = (
    (r"switchboard_Server\.resources", "the Server resources bundle (console, OpenAPI) next to the binary"),
    (r"(?m)^COPY\s.*switchboard_Storage\.resources\s+/app/switchboard_Storage\.resources",
     "the Storage resources bundle (the migrations) next to the binary"),
    (r'(?m)^ENTRYPOINT\s+\[".*switchboard"\]', "ENTRYPOINT switchboard"),
    (r"(?m)^COPY\s+(--\S+\s+)*flows\s+/app/flows", "the shipped flows at /app/flows"),
    (r"SWITCHBOARD_FLOWS_DIR=/app/flows", "SWITCHBOARD_FLOWS_DIR=/app/flows"),
)
DOCKERIGNORE = (".build", ".data", ".artifacts", "Package.resolved", ".env")
BASE_PACKAGES = {"libc6", "libgcc-s1", "libstdc++6"}   # in every Debian/Ubuntu image


def run(*command):
    return subprocess.run(command, capture_output=True, text=True, check=False)


# ---------------------------------------------------------------------------------- the image
def parse(text):
    """The stages of a Dockerfile: [{image, name, lines: [(INSTRUCTION, rest)]}], ARGs before the
    first FROM substituted into the images."""
    lines = re.sub(r"\\\n", " ", text).splitlines()
    args, stages = {}, []
    for line in lines:
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        word, _, rest = s.partition(" ")
        word = word.upper()
        if word == "ARG":
            name, _, value = rest.strip().partition("=")
            if not stages:
                args[name] = value.strip().strip('"')
            continue
        if word == "FROM":
            m = re.match(r"(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?", rest.strip(), re.I)
            image = re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda g: args.get(g.group(1) or g.group(2), ""), m.group(1))
            stages.append({"image": image, "name": (m.group(2) or "").lower(), "lines": []})
            continue
        if stages:
            stages[-1]["lines"].append((word, rest))
    return stages


def image(report, text, dockerignore):
    """Checks the Dockerfile's text and .dockerignore's; returns what the later checks need:
    {swift_version, static_stdlib, runtime_image, runtime_distro, runtime_packages}."""
    stages = parse(text)
    build = next((st for st in stages if st["name"] == "build"), stages[0] if stages else None)
    runtime = stages[-1] if stages else None
    swift_version = None
    build_distro = None
    if not build or not build["image"].startswith("swift:"):
        report.problem(D, F, f"the build stage must be FROM swift:<version>-<distro> AS build, got {build and build['image']}")
    else:
        tag = build["image"].split(":", 1)[1]
        m = re.match(r"^(\d+)\.(\d+)(?:\.(\d+))?-([a-z]+)$", tag)
        if not m:
            report.problem(D, F, f"pin the build image to a Swift version and distribution (swift:6.3-bookworm), got swift:{tag}")
        else:
            swift_version = (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))
            build_distro = m.group(4)
    build_runs = " ".join(rest for word, rest in (build["lines"] if build else []) if word == "RUN")
    static_stdlib = "--static-swift-stdlib" in build_runs
    runtime_distro = None
    runtime_image = runtime["image"] if runtime else ""
    if runtime is build or not runtime:
        report.problem(D, F, "needs a separate runtime stage")
    else:
        m = re.match(r"^(debian|ubuntu):([a-z]+)(?:-slim)?$", runtime_image) \
            or re.match(r"^swift:(\d+\.\d+(?:\.\d+)?)-([a-z]+)-slim$", runtime_image)
        if not m:
            report.problem(D, F, f"runtime stage must be debian:<release>-slim, ubuntu:<release> or "
                                 f"swift:<version>-<release>-slim, got {runtime_image}")
        else:
            runtime_distro = m.group(2)
            if runtime_image.startswith("swift:"):
                v = tuple(int(x) for x in m.group(1).split(".")) + (0,)
                if swift_version and v[:2] != swift_version[:2]:
                    report.problem(D, F, f"runtime {runtime_image} and build swift {swift_version} differ: "
                                         "the Swift runtime must match the compiler")
            elif not static_stdlib:
                report.problem(D, F, f"runtime {runtime_image} has no Swift runtime: build with --static-swift-stdlib "
                                     "or use swift:<version>-<release>-slim")
        if build_distro and runtime_distro and build_distro != runtime_distro:
            report.problem(D, F, f"build on {build_distro} but run on {runtime_distro}: shared libraries (librdkafka, libcurl) "
                                 "differ; use one release")
    runtime_runs = [rest for word, rest in runtime["lines"] if word == "RUN"] if runtime else []
    runtime_packages = set()
    for run_line in runtime_runs:
        for segment in re.split(r"&&|;|\|\|", run_line):
            words = segment.split()
            if "apt-get" in words and "install" in words:
                for w in words[words.index("install") + 1:]:
                    if not w.startswith("-"):
                        runtime_packages.add(w.split("=")[0])
    for package, why in RUNTIME_PACKAGES:
        if package not in runtime_packages:
            report.problem(D, F, f"the runtime stage must install {package} explicitly ({why})")
    builds = re.findall(r"swift build\b[^&;]*", build_runs)
    release_builds = [b for b in builds if "-c release" in b and "--show-bin-path" not in b]
    if not release_builds:
        report.problem(D, F, "no `swift build -c release` in the build stage")
    for b in release_builds:
        products = re.findall(r"--product[ =](\S+)", b)
        if products != ["switchboard"]:
            report.problem(D, F, "build only the switchboard product (`--product switchboard`; benchmarks are "
                                 f"switchboard-bench), got: {b.strip()}")
    if re.search(r"(^|[\s;&|])strip\s", build_runs) or "-Xlinker -s" in build_runs or "-Xlinker --strip" in build_runs:
        report.problem(D, F, "the binary is stripped: crash backtraces would be unreadable; keep the symbols")
    backtrace_env = re.search(r"SWIFT_BACKTRACE=(\S+)", text)
    if not backtrace_env:
        report.problem(D, F, "set SWIFT_BACKTRACE (enable=yes,...,swift-backtrace=<path of swift-backtrace-static>) "
                             "in the runtime stage")
    else:
        options = dict(o.split("=", 1) for o in backtrace_env.group(1).split(",") if "=" in o)
        if options.get("enable") != "yes":
            report.problem(D, F, "SWIFT_BACKTRACE must have enable=yes")
        path = options.get("swift-backtrace", "")
        if static_stdlib and not path.endswith("swift-backtrace-static"):
            report.problem(D, F, "a static Swift runtime needs swift-backtrace=<path to swift-backtrace-static>")
        copied = [rest for word, rest in (runtime["lines"] if runtime else []) if word == "COPY" and "swift-backtrace" in rest]
        if not any(rest.split()[-1] == path for rest in copied):
            report.problem(D, F, f"the backtracer {path} is not copied into the runtime stage at that path")
    for needle, why in REQUIRED_LINES:
        if not re.search(needle, text):
            report.problem(D, F, f"missing {why}")
    if re.search(r"(?m)^COPY\s.*Package\.resolved", text):
        report.problem(D, F, "do not COPY Package.resolved: this project's development machines pin mirror commit ids "
                             "GitHub does not have")
    ignore = dockerignore.split()
    for entry in DOCKERIGNORE:
        if entry not in ignore:
            report.problem(D, ".dockerignore", f"must exclude {entry}")
    report.say(f"{F}: build {build and build['image']}, runtime {runtime_image}, static stdlib {static_stdlib}, "
               f"runtime packages {sorted(runtime_packages)}, symbols kept, backtracer, only --product switchboard; .dockerignore")
    return {"swift_version": swift_version, "static_stdlib": static_stdlib, "runtime_image": runtime_image,
            "runtime_distro": runtime_distro, "runtime_packages": runtime_packages}


# ---------------------------------------------------------------------------------- Swift tools versions
def parse_version(text):
    m = re.match(r"^v?(\d+)\.(\d+)(?:\.(\d+))?$", text.strip())
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)) if m else None


def tools_version(manifest_text):
    """The swift-tools-version of a manifest's first line (3.1 when it names none, as SwiftPM reads it)."""
    m = re.search(r"swift-tools-version\s*:\s*(\d+)\.(\d+)(?:\.(\d+))?", manifest_text.splitlines()[0] if manifest_text else "")
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)) if m else (3, 1, 0)


def fmt(v):
    return ".".join(str(x) for x in (v if v[2] else v[:2]))


def select_manifest(names, read_manifest, current):
    """SwiftPM's choice among Package.swift and Package@swift-X[.Y[.Z]].swift for toolchain `current`."""
    keys = [f"Package@swift-{current[0]}.{current[1]}.{current[2]}.swift", f"Package@swift-{current[0]}.{current[1]}.swift",
            f"Package@swift-{current[0]}.swift"]
    for key in keys:
        if key in names:
            return key
    versioned = {}
    for n in names:
        m = re.fullmatch(r"Package@swift-(\d+)(?:\.(\d+))?(?:\.(\d+))?\.swift", n)
        if m:
            versioned[(int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0))] = n
    candidates = sorted((v for v in versioned if v <= current), reverse=True)
    if candidates:
        chosen = versioned[candidates[0]]
        if tools_version(read_manifest(chosen)) > tools_version(read_manifest("Package.swift")):
            return chosen
    return "Package.swift"


def unconditional(manifest_text):
    """The manifest without its top-level `if ... { }` blocks: dependencies added only when an
    environment variable or flag is set (benchmarks, the DocC plugin) are not resolved normally."""
    out, i = [], 0
    for m in re.finditer(r"(?m)^if\b", manifest_text):
        if m.start() < i:
            continue
        start = manifest_text.find("{", m.end())
        if start < 0:
            break
        depth, j = 0, start
        while j < len(manifest_text):
            depth += {"{": 1, "}": -1}.get(manifest_text[j], 0)
            j += 1
            if depth == 0:
                break
        while True:   # `} else if ... {` / `} else {` chains
            rest = re.match(r"\s*else\b[^{]*\{", manifest_text[j:])
            if not rest:
                break
            depth, j = 0, j + rest.end() - 1
            while j < len(manifest_text):
                depth += {"{": 1, "}": -1}.get(manifest_text[j], 0)
                j += 1
                if depth == 0:
                    break
        out.append(manifest_text[i:m.start()])
        i = j
    out.append(manifest_text[i:])
    return "".join(out)


def requirements(manifest_text):
    """(url, requirement) of each `.package(url:...)` of a manifest; a requirement is (kind, version...)
    with kind exact, minor, major, range, closed or unversioned, or None."""
    manifest_text = unconditional(manifest_text)
    found = []
    for m in re.finditer(r"\.package\s*\((.*?)\)\s*(?:,|\]|\n)", manifest_text, re.S):
        body = m.group(1)
        url = re.search(r'url:\s*"([^"]+)"', body)
        if not url:
            continue
        req = None
        for pattern, kind in ((r'exact:\s*"([^"]+)"', "exact"), (r'\.upToNextMinor\(from:\s*"([^"]+)"', "minor"),
                              (r'\.upToNextMajor\(from:\s*"([^"]+)"', "major"), (r'from:\s*"([^"]+)"', "major"),
                              (r'"([^"]+)"\s*\.\.<\s*"([^"]+)"', "range"), (r'"([^"]+)"\s*\.\.\.\s*"([^"]+)"', "closed"),
                              (r'(branch|revision):', "unversioned")):
            r = re.search(pattern, body)
            if r:
                req = (kind,) + r.groups()
                break
        found.append((url.group(1), req))
    return found


def satisfies(version, req):
    kind = req[0]
    if kind == "exact":
        return version == parse_version(req[1])
    low = parse_version(req[1]) if kind != "unversioned" else None
    if low is None:
        return False
    if kind == "major":
        return low <= version < (low[0] + 1, 0, 0)
    if kind == "minor":
        return low <= version < (low[0], low[1] + 1, 0)
    high = parse_version(req[2])
    return low <= version < high if kind == "range" else low <= version <= high


def git_mirrors():
    """git's url.<base>.insteadOf rewrites as (prefix, base), longest prefix first."""
    insteadof = []
    for line in run("git", "config", "--get-regexp", r"^url\..*\.insteadof$").stdout.splitlines():
        key, _, prefix = line.partition(" ")
        insteadof.append((prefix, key[len("url."):-len(".insteadof")]))
    insteadof.sort(key=lambda p: -len(p[0]))
    return insteadof


def local_repository(url, insteadof):
    for prefix, base in insteadof:
        if url.startswith(prefix):
            path = base + url[len(prefix):]
            for candidate in (path, path + ".git" if not path.endswith(".git") else path[:-4]):
                if os.path.isdir(candidate):
                    return candidate
    return url if os.path.isdir(url) else None


def checkout_manifests(root, current):
    """{name: (version, tools version, manifest, "checkout")} of the dependencies in .build/checkouts."""
    deps = {}
    checkouts = os.path.join(root, ".build", "checkouts")
    resolved = {}
    try:
        with open(os.path.join(root, "Package.resolved"), encoding="utf-8") as f:
            pins = json.load(f).get("pins", [])
        for pin in pins:
            name = pin["location"].rstrip("/").removesuffix(".git").rsplit("/", 1)[-1].lower()
            resolved[name] = pin["state"].get("version") or pin["state"].get("revision", "")[:12]
    except (ValueError, KeyError):
        pass
    for entry in sorted(os.listdir(checkouts)):
        directory = os.path.join(checkouts, entry)
        if not os.path.exists(os.path.join(directory, "Package.swift")):
            continue
        names = os.listdir(directory)
        def read_manifest(n, d=directory):
            with open(os.path.join(d, n), encoding="utf-8", errors="replace") as f:
                return f.read()
        chosen = select_manifest(names, read_manifest, current)
        deps[entry] = (resolved.get(entry.lower(), "?"), tools_version(read_manifest(chosen)), chosen, "checkout")
    return deps


def mirror_manifests(report, root, current, insteadof):
    """{name: (tag, tools version, manifest, "mirror")}: the newest tag of each local mirror that
    satisfies the requirement, following the dependencies' own manifests."""
    deps = {}
    queue = [(url, req, "Package.swift") for url, req in requirements(read(root, "Package.swift"))]
    seen = set()
    while queue:
        url, req, parent = queue.pop(0)
        key = url.lower().rstrip("/").removesuffix(".git")
        if key in seen:
            continue
        seen.add(key)
        name = key.rsplit("/", 1)[-1]
        if req is None or req[0] == "unversioned":
            report.problem(D, parent, f"dependency {url} is not pinned to a version: its tools version cannot be checked")
            continue
        repository = local_repository(url, insteadof)
        if not repository:
            report.note(f"note: {url} has no local mirror here (git insteadOf): its tools version is not checked")
            continue
        tags = [t for t in run("git", "-C", repository, "tag").stdout.split() if parse_version(t)]
        matching = sorted((t for t in tags if satisfies(parse_version(t), req)), key=parse_version)
        if not matching:
            report.problem(D, parent, f"{url} {req}: no version in {repository} satisfies the requirement")
            continue
        tag = matching[-1]
        names = run("git", "-C", repository, "ls-tree", "--name-only", tag).stdout.split()
        read_manifest = lambda n, r=repository, t=tag: run("git", "-C", r, "show", f"{t}:{n}").stdout
        chosen = select_manifest(names, read_manifest, current)
        text = read_manifest(chosen)
        deps[name] = (tag, tools_version(text), chosen, "mirror")
        queue.extend((u, r, f"{name} {tag} {chosen}") for u, r in requirements(text))
    return deps


def swift_tools(report, root, swift_version, insteadof=None):
    """The image's Swift version >= the swift-tools-version of this package and every dependency."""
    current = swift_version or (0, 0, 0)
    if os.path.isdir(os.path.join(root, ".build", "checkouts")) and os.path.exists(os.path.join(root, "Package.resolved")):
        source_note = "the resolved dependencies in .build/checkouts"
        deps = checkout_manifests(root, current)
    else:
        source_note = "the versions Package.swift names, read from the local package mirrors"
        deps = mirror_manifests(report, root, current, git_mirrors() if insteadof is None else insteadof)
    deps["(this package)"] = ("", tools_version(read(root, "Package.swift")), "Package.swift", "root")
    if not swift_version:
        return
    for name, (version, tools, manifest, _) in sorted((n, v) for n, v in deps.items() if v[1] > swift_version):
        report.problem(D, F, f"builds on swift:{fmt(swift_version)} but {name} {version} declares swift-tools-version "
                             f"{fmt(tools)} ({manifest}): `swift package resolve` fails in the image; raise SWIFT_VERSION "
                             "to the toolchain the project is developed with")
    highest = max(deps.items(), key=lambda item: item[1][1])
    report.say(f"Swift {fmt(swift_version)} of the image >= swift-tools-version of {len(deps)} manifests ({source_note}); "
               f"highest: {highest[0]} {highest[1][0]} at {fmt(highest[1][1])}")
    report.note(", ".join(f"{n} {v[0]} ({fmt(v[1])})" for n, v in sorted(deps.items())))


# ---------------------------------------------------------------------------------- the binary's libraries
def parse_ldd(output):
    """{soname: resolved path, or None when `not found`} of `ldd` output (the vDSO left out)."""
    needed = {}
    for line in output.splitlines():
        line = line.strip()
        m = re.match(r"(\S+)\s+=>\s+(not found|\S+)", line) or re.match(r"(/\S+)\s+\(0x", line)
        if not m:
            continue
        soname = os.path.basename(m.group(1))
        path = m.group(2) if m.lastindex and m.lastindex >= 2 else m.group(1)
        if soname.startswith("linux-vdso") or soname.startswith("linux-gate"):
            continue
        needed[soname] = None if path == "not found" else path
    return needed


def is_swift_runtime(soname, path):
    return bool(path and "/lib/swift/" in path) or bool(re.match(
        r"lib(swift\w*|Foundation\w*|_Foundation\w*|dispatch|BlocksRuntime|XCTest|Testing)\.so", soname))


def dt_needed(path):
    return re.findall(r"^\s*NEEDED\s+(\S+)", run("objdump", "-p", path).stdout, re.M)


def package_of(path):
    """The Debian package that owns `path` on this machine (merged /usr tried both ways), or None."""
    candidates = [path, os.path.realpath(path)]
    for p in list(candidates):
        if p.startswith("/usr/"):
            candidates.append(p[4:])
        elif p.startswith("/"):
            candidates.append("/usr" + p)
    for p in candidates:
        out = run("dpkg", "-S", p)
        if out.returncode == 0 and out.stdout:
            return out.stdout.split(":", 1)[0].split(",")[0].strip()
    return None


def installed(package):
    out = run("dpkg-query", "-W", "-f=${Status}", package)
    return out.returncode == 0 and "install ok installed" in out.stdout


def closure(packages):
    """`packages` and everything they depend on (installed packages from dpkg, others from apt-cache)."""
    result, pending = set(), list(packages)
    while pending:
        package = pending.pop()
        if package in result:
            continue
        result.add(package)
        if installed(package):
            out = run("dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}", package).stdout
        else:
            out = ", ".join(l.split(":", 1)[1] for l in run("apt-cache", "depends", "--no-recommends", "--no-suggests",
                                                               "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances",
                                                               package).stdout.splitlines()
                            if l.strip().startswith(("Depends:", "PreDepends:", "|Depends:")))
        for alternative in out.split(","):
            for option in alternative.split("|"):
                name = option.strip().split(" ")[0].split(":")[0].strip("<>")
                if name:
                    pending.append(name)
    return result


def libraries(report, binary, info):
    """The runtime stage provides every shared library of the binary; the direct ones by name."""
    if not binary:
        report.note("SKIPPED runtime libraries vs ldd: no built binary (pass --binary PATH, set SWITCHBOARD_BINARY, "
                    "or build first; scripts/test.sh runs this script before `swift build`)")
        return
    if not os.path.exists(binary):
        report.problem("ldd", binary, "no such file (--binary)")
        return
    L = "ldd"
    static_stdlib, runtime_image = info["static_stdlib"], info["runtime_image"]
    runtime_packages, runtime_distro = info["runtime_packages"], info["runtime_distro"]
    ldd = run("ldd", binary)
    if ldd.returncode != 0:
        report.problem(L, binary, f"ldd failed: {ldd.stderr.strip() or ldd.stdout.strip()}")
    needed = parse_ldd(ldd.stdout)
    swift_libs = {s: p for s, p in needed.items() if is_swift_runtime(s, p)}
    direct = set(dt_needed(binary))
    # With a static Swift runtime in the image, what the runtime libraries load the binary loads.
    pending, visited = [s for s in direct if s in swift_libs], set()
    while pending:
        s = pending.pop()
        if s in visited or not swift_libs.get(s):
            continue
        visited.add(s)
        for n in dt_needed(swift_libs[s]):
            direct.add(n)
            if n in swift_libs:
                pending.append(n)
    direct = {s for s in direct if s not in swift_libs}
    if swift_libs and not (static_stdlib or runtime_image.startswith("swift:")):
        report.problem(L, F, f"the binary loads the Swift runtime ({', '.join(sorted(swift_libs)[:4])}, ...) but the image "
                             "neither links it statically nor runs on swift:*-slim")
    provided = BASE_PACKAGES | closure(runtime_packages)
    for soname, path in sorted(needed.items()):
        if soname in swift_libs:
            continue
        if path is None:
            report.problem(L, binary, f"{soname} is not found on this machine (ldd): cannot map it to a package")
            continue
        package = package_of(path)
        if not package:
            report.problem(L, binary, f"{soname} ({path}) belongs to no Debian package here: the image cannot provide it with apt-get")
            continue
        if package not in provided:
            report.problem(L, F, f"the binary needs {soname} (package {package}), which the runtime stage does not install")
        elif soname in direct and package not in BASE_PACKAGES and package not in runtime_packages:
            report.problem(L, F, f"the binary links {soname} directly (package {package}) but the runtime stage gets it only as "
                                 f"a dependency of another package: install {package} explicitly")
    with open("/etc/os-release", encoding="utf-8") as f:
        host = dict(l.split("=", 1) for l in f.read().splitlines() if "=" in l).get("VERSION_CODENAME", "").strip('"')
    note = "" if not runtime_distro or host == runtime_distro else f" (mapped with this machine's {host} packages; the image is {runtime_distro})"
    report.say(f"ldd {binary}: {len(needed)} libraries, {len(swift_libs)} of the Swift runtime "
               f"({'linked statically in the image' if static_stdlib else 'from the base image'}), direct {sorted(direct)}; "
               f"all provided by {sorted(runtime_packages)} + base{note}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m deploycheck.dockerfile", description="Checks deploy/Dockerfile.")
    parser.add_argument("root", help="the repository")
    parser.add_argument("--binary", default="", help="a built switchboard whose `ldd` the runtime stage must satisfy")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    report = Report("deploycheck.dockerfile")
    info = image(report, read(args.root, "deploy", "Dockerfile"), read(args.root, ".dockerignore"))
    swift_tools(report, args.root, info["swift_version"])
    libraries(report, args.binary, info)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
