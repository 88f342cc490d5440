#!/bin/sh
# SPDX-License-Identifier: MIT
# The RPM installs the same files as the Debian package:
#   tests/packages/compare.sh DEB RPM
# Both lists are of files (not directories), with the differences the two
# distributions make by their own rules written the same way first:
#   /lib/systemd/system (Debian 12)       = /usr/lib/systemd/system (RPM %{_unitdir})
#   /usr/share/zsh/vendor-completions     = /usr/share/zsh/site-functions
#   a document gzipped by dh_compress     = the same document
# and the packaging's own files left out: Debian's copyright and changelog
# (debian/changelog, installed as changelog.gz for a native package), RPM's
# license file and /usr/lib/.build-id links (the changelog is in the RPM's header).
# Prints both lists' differences; exit 1 when there are any.
set -eu
deb=$1 rpm=$2
tmp=$(mktemp -d /tmp/ras-fdr-packages-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

normalize() {
	sed -e 's|^\./|/|' -e 's|^/lib/systemd/system/|/usr/lib/systemd/system/|' \
	    -e 's|^/usr/share/zsh/vendor-completions/|/usr/share/zsh/site-functions/|' \
	    -e 's|^\(/usr/share/doc/ras-fdr/.*\)\.gz$|\1|' |
	grep -v -e '^/usr/share/doc/ras-fdr/copyright$' -e '^/usr/share/doc/ras-fdr/changelog\(\.Debian\)\?$' \
		-e '^/usr/share/licenses/' -e '^/usr/lib/\.build-id/' | sort
}

# dpkg-deb: "perms owner size date time path"; directories end in '/'.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | normalize > "$tmp/deb"
# rpm: mode and path; a directory's mode starts with d.
rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$rpm" | awk '$1 !~ /^d/ { print $2 }' |
	normalize > "$tmp/rpm"
if ! cmp -s "$tmp/deb" "$tmp/rpm"; then
	echo "packages: the RPM and the Debian package install different files (< Debian, > RPM):"
	diff "$tmp/deb" "$tmp/rpm" | grep '^[<>]'
	exit 1
fi
echo "packages: the RPM and the Debian package install the same $(wc -l < "$tmp/deb") files"
