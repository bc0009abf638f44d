import json
import os
import subprocess
import tempfile
import unittest
from unittest import mock

from .. import dockerfile
from .support import CheckerTest, report

GOOD = """\
ARG SWIFT_VERSION=6.3
ARG DEBIAN_RELEASE=bookworm
FROM swift:${SWIFT_VERSION}-${DEBIAN_RELEASE} AS build
RUN apt-get update && apt-get install -y librdkafka-dev zlib1g-dev libjemalloc-dev
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --product switchboard --static-swift-stdlib \\
    && bin="$(swift build -c release --show-bin-path)" \\
    && cp "$bin/switchboard" "$bin/switchboard_Server.resources" "$bin/switchboard_Storage.resources" /staging/ \\
    && cp /usr/libexec/swift/linux/swift-backtrace-static /staging/

FROM debian:${DEBIAN_RELEASE}-slim AS runtime
RUN apt-get update \\
    && apt-get install -y --no-install-recommends librdkafka1 zlib1g libjemalloc2 libcurl4 ca-certificates tzdata curl \\
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /staging/switchboard /app/switchboard
COPY --from=build /staging/switchboard_Server.resources /app/switchboard_Server.resources
COPY --from=build /staging/switchboard_Storage.resources /app/switchboard_Storage.resources
COPY --from=build /staging/swift-backtrace-static /usr/libexec/swift/linux/swift-backtrace-static
COPY --chown=root:root flows /app/flows
ENV SWIFT_BACKTRACE=enable=yes,sanitize=yes,swift-backtrace=/usr/libexec/swift/linux/swift-backtrace-static \\
    SWITCHBOARD_FLOWS_DIR=/app/flows
USER 10001:10001
ENTRYPOINT ["/app/switchboard"]
"""
DOCKERIGNORE = ".build\n.data\n.artifacts\n.git\nPackage.resolved\n.env\n"


def checked(text=GOOD, ignore=DOCKERIGNORE):
    r = report()
    info = dockerfile.image(r, text, ignore)
    return r.problems, info


class ImageTest(CheckerTest):
    def test_good_dockerfile_passes(self):
        problems, info = checked()
        self.assertClean(problems)
        self.assertEqual(info["swift_version"], (6, 3, 0))
        self.assertTrue(info["static_stdlib"])
        self.assertEqual(info["runtime_image"], "debian:bookworm-slim")
        self.assertEqual(info["runtime_packages"], {"librdkafka1", "zlib1g", "libjemalloc2", "libcurl4", "ca-certificates", "tzdata", "curl"})

    def test_build_image_not_swift(self):
        problems, _ = checked(GOOD.replace("swift:${SWIFT_VERSION}-${DEBIAN_RELEASE} AS build", "ubuntu:24.04 AS build"))
        self.assertReports(problems, "the build stage must be FROM swift:<version>-<distro> AS build, got ubuntu:24.04")

    def test_build_image_not_pinned(self):
        problems, _ = checked(GOOD.replace("ARG SWIFT_VERSION=6.3", "ARG SWIFT_VERSION=latest"))
        self.assertReports(problems, "pin the build image to a Swift version and distribution")

    def test_single_stage(self):
        text = GOOD[:GOOD.index("FROM debian")]
        problems, _ = checked(text)
        self.assertReports(problems, "needs a separate runtime stage")

    def test_runtime_on_another_release(self):
        problems, _ = checked(GOOD.replace("FROM debian:${DEBIAN_RELEASE}-slim", "FROM debian:trixie-slim"))
        self.assertReports(problems, "build on bookworm but run on trixie")

    def test_runtime_without_swift_runtime(self):
        problems, _ = checked(GOOD.replace(" --static-swift-stdlib", ""))
        self.assertReports(problems, "runtime debian:bookworm-slim has no Swift runtime")

    def test_swift_slim_runtime_of_another_version(self):
        text = GOOD.replace(" --static-swift-stdlib", "").replace("FROM debian:${DEBIAN_RELEASE}-slim", "FROM swift:6.2-bookworm-slim")
        problems, _ = checked(text)
        self.assertReports(problems, "runtime swift:6.2-bookworm-slim and build swift (6, 3, 0) differ")

    def test_unknown_runtime_image(self):
        problems, _ = checked(GOOD.replace("FROM debian:${DEBIAN_RELEASE}-slim", "FROM alpine:3.20"))
        self.assertReports(problems, "runtime stage must be debian:<release>-slim", "got alpine:3.20")

    def test_runtime_library_not_installed(self):
        problems, _ = checked(GOOD.replace(" librdkafka1 ", " "))
        self.assertReports(problems, "the runtime stage must install librdkafka1 explicitly (Kafka)")

    def test_no_release_build(self):
        problems, _ = checked(GOOD.replace("swift build -c release --product", "swift build --product"))
        self.assertReports(problems, "no `swift build -c release` in the build stage")

    def test_benchmarks_built_too(self):
        problems, _ = checked(GOOD.replace("--product switchboard --static", "--product switchboard --product switchboard-bench --static"))
        self.assertReports(problems, "build only the switchboard product")

    def test_stripped_binary(self):
        problems, _ = checked(GOOD.replace("&& cp /usr/libexec", "&& strip /staging/switchboard && cp /usr/libexec"))
        self.assertReports(problems, "the binary is stripped")
        problems, _ = checked(GOOD.replace("--static-swift-stdlib", "--static-swift-stdlib -Xlinker -s"))
        self.assertReports(problems, "the binary is stripped")

    def test_backtracer(self):
        problems, _ = checked(GOOD.replace("SWIFT_BACKTRACE=enable=yes,", "SWIFT_BACKTRACE=enable=no,"))
        self.assertReports(problems, "SWIFT_BACKTRACE must have enable=yes")
        problems, _ = checked(GOOD.replace("swift-backtrace=/usr/libexec/swift/linux/swift-backtrace-static", "swift-backtrace=/usr/bin/swift-backtrace"))
        self.assertReports(problems, "a static Swift runtime needs swift-backtrace=<path to swift-backtrace-static>")
        self.assertReports(problems, "the backtracer /usr/bin/swift-backtrace is not copied into the runtime stage")
        problems, _ = checked(GOOD.replace("ENV SWIFT_BACKTRACE=enable=yes,sanitize=yes,swift-backtrace=/usr/libexec/swift/linux/swift-backtrace-static \\\n    ", "ENV "))
        self.assertReports(problems, "set SWIFT_BACKTRACE")

    def test_missing_lines(self):
        problems, _ = checked(GOOD.replace("COPY --chown=root:root flows /app/flows\n", ""))
        self.assertReports(problems, "missing the shipped flows at /app/flows")
        problems, _ = checked(GOOD.replace('ENTRYPOINT ["/app/switchboard"]', 'CMD ["/app/switchboard"]'))
        self.assertReports(problems, "missing ENTRYPOINT switchboard")

    def test_package_resolved_copied(self):
        problems, _ = checked(GOOD.replace("COPY Package.swift ./", "COPY Package.swift Package.resolved ./"))
        self.assertReports(problems, "do not COPY Package.resolved")

    def test_dockerignore(self):
        problems, _ = checked(ignore=DOCKERIGNORE.replace(".env\n", ""))
        self.assertReports(problems, "dockerfile: .dockerignore: must exclude .env")


class ManifestTest(unittest.TestCase):
    def test_tools_version(self):
        self.assertEqual(dockerfile.tools_version("// swift-tools-version: 6.1\nimport PackageDescription"), (6, 1, 0))
        self.assertEqual(dockerfile.tools_version("// swift-tools-version:5.10.1\n"), (5, 10, 1))
        self.assertEqual(dockerfile.tools_version("import PackageDescription\n"), (3, 1, 0))

    def test_select_manifest(self):
        texts = {"Package.swift": "// swift-tools-version:5.9\n", "Package@swift-6.0.swift": "// swift-tools-version:6.0\n",
                 "Package@swift-6.5.swift": "// swift-tools-version:6.5\n"}
        pick = lambda current, names=tuple(texts): dockerfile.select_manifest(list(names), texts.__getitem__, current)
        self.assertEqual(pick((6, 3, 0)), "Package@swift-6.0.swift")
        self.assertEqual(pick((6, 5, 0)), "Package@swift-6.5.swift")
        self.assertEqual(pick((5, 10, 0)), "Package.swift")

    def test_requirements_skip_conditional_dependencies(self):
        manifest = """\
// swift-tools-version: 6.1
let package = Package(
    dependencies: [
        .package(url: "https://example.invalid/a.git", exact: "1.2.3"),
        .package(url: "https://example.invalid/b.git", from: "2.0.0"),
        .package(url: "https://example.invalid/c.git", .upToNextMinor(from: "0.4.0")),
        .package(url: "https://example.invalid/d.git", "1.0.0"..<"3.0.0"),
        .package(url: "https://example.invalid/e.git", branch: "main"),
    ]
)
if Context.environment["BENCHMARKS"] != nil {
    package.dependencies += [.package(url: "https://example.invalid/bench.git", from: "1.0.0")]
} else {
    package.dependencies += [.package(url: "https://example.invalid/other.git", from: "1.0.0")]
}
"""
        self.assertEqual(dockerfile.requirements(manifest), [
            ("https://example.invalid/a.git", ("exact", "1.2.3")),
            ("https://example.invalid/b.git", ("major", "2.0.0")),
            ("https://example.invalid/c.git", ("minor", "0.4.0")),
            ("https://example.invalid/d.git", ("range", "1.0.0", "3.0.0")),
            ("https://example.invalid/e.git", ("unversioned", "branch")),
        ])

    def test_satisfies(self):
        self.assertTrue(dockerfile.satisfies((2, 5, 0), ("major", "2.0.0")))
        self.assertFalse(dockerfile.satisfies((3, 0, 0), ("major", "2.0.0")))
        self.assertFalse(dockerfile.satisfies((0, 5, 0), ("minor", "0.4.0")))
        self.assertTrue(dockerfile.satisfies((1, 2, 3), ("exact", "1.2.3")))
        self.assertFalse(dockerfile.satisfies((3, 0, 0), ("range", "1.0.0", "3.0.0")))
        self.assertTrue(dockerfile.satisfies((3, 0, 0), ("closed", "1.0.0", "3.0.0")))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class SwiftToolsTest(CheckerTest):
    def tools(self, root, swift_version, insteadof=()):
        r = report()
        dockerfile.swift_tools(r, root, swift_version, insteadof=list(insteadof))
        return r.problems

    def test_checkouts(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "Package.swift"), "// swift-tools-version: 6.1\n")
            write(os.path.join(root, "Package.resolved"), json.dumps({"pins": [
                {"location": "https://example.invalid/dep.git", "state": {"version": "1.4.0"}}]}))
            write(os.path.join(root, ".build", "checkouts", "dep", "Package.swift"), "// swift-tools-version: 6.2\n")
            self.assertClean(self.tools(root, (6, 3, 0)))
            self.assertReports(self.tools(root, (6, 1, 0)),
                               "builds on swift:6.1 but dep 1.4.0 declares swift-tools-version 6.2 (Package.swift)")

    def test_this_package_newer_than_the_image(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "Package.swift"), "// swift-tools-version: 6.4\n")
            self.assertReports(self.tools(root, (6, 3, 0)), "(this package)", "declares swift-tools-version 6.4")

    def git(self, *args):
        subprocess.run(("git",) + args, check=True, capture_output=True,
                       env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                            "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})

    def test_local_mirrors(self):
        """Without checkouts: the newest tag of the mirror that satisfies the requirement is read."""
        with tempfile.TemporaryDirectory() as root:
            mirrors = os.path.join(root, "mirrors")
            dep = os.path.join(mirrors, "dep")
            os.makedirs(dep)
            self.git("-C", dep, "init", "-q")
            for tag, tools in (("1.0.0", "5.9"), ("1.1.0", "6.4"), ("2.0.0", "6.9")):
                write(os.path.join(dep, "Package.swift"), f"// swift-tools-version: {tools}\n")
                self.git("-C", dep, "add", "Package.swift")
                self.git("-C", dep, "commit", "-q", "-m", tag)
                self.git("-C", dep, "tag", tag)
            write(os.path.join(root, "Package.swift"),
                  '// swift-tools-version: 6.1\n.package(url: "https://example.invalid/dep.git", from: "1.0.0"),\n')
            insteadof = [("https://example.invalid/", mirrors + "/")]
            self.assertReports(self.tools(root, (6, 3, 0), insteadof), "dep 1.1.0 declares swift-tools-version 6.4")
            self.assertClean(self.tools(root, (6, 4, 0), insteadof))
            write(os.path.join(root, "Package.swift"),
                  '// swift-tools-version: 6.1\n.package(url: "https://example.invalid/dep.git", exact: "3.0.0"),\n')
            self.assertReports(self.tools(root, (6, 4, 0), insteadof), "no version in", "satisfies the requirement")

    def test_unpinned_dependency(self):
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "Package.swift"),
                  '// swift-tools-version: 6.1\n.package(url: "https://example.invalid/dep.git", branch: "main"),\n')
            self.assertReports(self.tools(root, (6, 3, 0)), "dependency https://example.invalid/dep.git is not pinned to a version")


class LibrariesTest(CheckerTest):
    def test_parse_ldd(self):
        output = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibrdkafka.so.1 => /lib/x86_64-linux-gnu/librdkafka.so.1 (0x00007f1)
\tlibswiftCore.so => /usr/lib/swift/linux/libswiftCore.so (0x00007f2)
\tlibgone.so.3 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f3)
"""
        self.assertEqual(dockerfile.parse_ldd(output), {
            "librdkafka.so.1": "/lib/x86_64-linux-gnu/librdkafka.so.1",
            "libswiftCore.so": "/usr/lib/swift/linux/libswiftCore.so",
            "libgone.so.3": None,
            "ld-linux-x86-64.so.2": "/lib64/ld-linux-x86-64.so.2",
        })

    def test_swift_runtime_libraries(self):
        self.assertTrue(dockerfile.is_swift_runtime("libFoundationEssentials.so", None))
        self.assertTrue(dockerfile.is_swift_runtime("libanything.so", "/opt/swift/usr/lib/swift/linux/libanything.so"))
        self.assertFalse(dockerfile.is_swift_runtime("librdkafka.so.1", "/lib/x86_64-linux-gnu/librdkafka.so.1"))

    LDD = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibrdkafka.so.1 => /lib/x86_64-linux-gnu/librdkafka.so.1 (0x00007f1)
\tliblz4.so.1 => /lib/x86_64-linux-gnu/liblz4.so.1 (0x00007f2)
\tlibswiftCore.so => /usr/lib/swift/linux/libswiftCore.so (0x00007f3)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f4)
"""
    PACKAGES = {"/lib/x86_64-linux-gnu/librdkafka.so.1": "librdkafka1", "/lib/x86_64-linux-gnu/liblz4.so.1": "liblz4-1",
                "/lib/x86_64-linux-gnu/libc.so.6": "libc6", "/lib/x86_64-linux-gnu/libpq.so.5": "libpq5"}

    def libraries(self, ldd=LDD, direct=("librdkafka.so.1", "libswiftCore.so", "libc.so.6"), swift_loads=(),
                  info=None, ldd_status=0, packages=None):
        """libraries() on a fake binary: `ldd` prints `ldd`, the binary's DT_NEEDED is `direct`, the
        Swift runtime's `swift_loads`; librdkafka1 depends on liblz4-1."""
        info = info or checked()[1]
        packages = self.PACKAGES if packages is None else packages
        def run(*command):
            self.assertEqual(command[0], "ldd")
            return mock.Mock(returncode=ldd_status, stdout=ldd, stderr="ldd: not a dynamic executable" if ldd_status else "")
        def dt_needed(path):
            return list(swift_loads) if "libswiftCore" in path else list(direct)
        def closure(names):
            return set(names) | ({"liblz4-1"} if "librdkafka1" in names else set())
        with tempfile.NamedTemporaryFile() as binary, \
                mock.patch.object(dockerfile, "run", run), mock.patch.object(dockerfile, "dt_needed", dt_needed), \
                mock.patch.object(dockerfile, "package_of", packages.get), mock.patch.object(dockerfile, "closure", closure):
            r = report()
            dockerfile.libraries(r, binary.name, info)
            return r.problems, r.out.getvalue()

    def test_every_library_provided(self):
        problems, out = self.libraries()
        self.assertClean(problems)
        self.assertIn("4 libraries, 1 of the Swift runtime (linked statically in the image)", out)

    def test_library_the_runtime_stage_does_not_provide(self):
        problems, _ = self.libraries(self.LDD + "\tlibpq.so.5 => /lib/x86_64-linux-gnu/libpq.so.5 (0x00007f5)\n")
        self.assertReports(problems, "ldd: deploy/Dockerfile: the binary needs libpq.so.5 (package libpq5), "
                                     "which the runtime stage does not install")

    def test_direct_library_installed_only_as_a_dependency(self):
        problems, _ = self.libraries(direct=("librdkafka.so.1", "liblz4.so.1"))
        self.assertReports(problems, "the binary links liblz4.so.1 directly (package liblz4-1)", "install liblz4-1 explicitly")

    def test_what_the_static_swift_runtime_loads_counts_as_direct(self):
        problems, _ = self.libraries(swift_loads=("liblz4.so.1",))
        self.assertReports(problems, "the binary links liblz4.so.1 directly")

    def test_library_not_found_or_of_no_package(self):
        problems, _ = self.libraries(self.LDD + "\tlibgone.so.3 => not found\n", packages={})
        self.assertReports(problems, "libgone.so.3 is not found on this machine (ldd)")
        self.assertReports(problems, "librdkafka.so.1 (/lib/x86_64-linux-gnu/librdkafka.so.1) belongs to no Debian package here")

    def test_swift_runtime_without_static_stdlib_or_swift_image(self):
        info = dict(checked()[1], static_stdlib=False)
        problems, _ = self.libraries(info=info)
        self.assertReports(problems, "the binary loads the Swift runtime (libswiftCore.so, ...)")

    def test_ldd_fails(self):
        problems, _ = self.libraries(ldd="", ldd_status=1)
        self.assertReports(problems, "ldd failed: ldd: not a dynamic executable")

    def test_no_binary_is_skipped_and_a_missing_one_fails(self):
        r = report()
        dockerfile.libraries(r, "", checked()[1])
        self.assertClean(r.problems)
        self.assertIn("SKIPPED runtime libraries vs ldd", r.out.getvalue())
        dockerfile.libraries(r, "/nonexistent/switchboard", checked()[1])
        self.assertReports(r.problems, "ldd: /nonexistent/switchboard: no such file (--binary)")


if __name__ == "__main__":
    unittest.main()
