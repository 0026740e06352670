#!/usr/bin/env bash
# The packages as a team gets them: follows the README's "Serve your own service" steps as printed
# (.ci/readme_steps.py) in a new folder outside the solution, which pack the six libraries into the folder's feed and
# restore ProtoHttp from it alone; then checks that exactly the six libraries came out, each with its readme, license
# and symbols.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A folder of its own, outside the solution (so none of the repository's Directory.*.props apply). The README's first
# step gives it its own nuget.config and packages folder, which NUGET_PACKAGES would override.
mkdir "$work/consumer"
unset NUGET_PACKAGES
export PROTOHTTP="$repo"
(cd "$work/consumer" && python3 "$repo/.ci/readme_steps.py" "$repo/README.md")

feed="$work/consumer/feed"
fail() { echo "consumer test: $1"; exit 1; }
expected="ProtoHttp.0.1.0.nupkg ProtoHttp.0.1.0.snupkg ProtoHttp.AspNetCore.0.1.0.nupkg ProtoHttp.AspNetCore.0.1.0.snupkg ProtoHttp.AspNetCore.Nats.0.1.0.nupkg ProtoHttp.AspNetCore.Nats.0.1.0.snupkg ProtoHttp.AspNetCore.OpenApi.0.1.0.nupkg ProtoHttp.AspNetCore.OpenApi.0.1.0.snupkg ProtoHttp.AspNetCore.Redis.0.1.0.nupkg ProtoHttp.AspNetCore.Redis.0.1.0.snupkg ProtoHttp.Client.0.1.0.nupkg ProtoHttp.Client.0.1.0.snupkg"
packed=$(cd "$feed" && ls | sort | xargs)
[ "$packed" = "$expected" ] || fail "dotnet pack made '$packed', not '$expected'"
for id in ProtoHttp ProtoHttp.AspNetCore ProtoHttp.AspNetCore.OpenApi ProtoHttp.AspNetCore.Redis ProtoHttp.AspNetCore.Nats ProtoHttp.Client; do
  contents=$(unzip -l "$feed/$id.0.1.0.nupkg")
  for file in README.md LICENSE "lib/net10.0/$id.dll" "lib/net10.0/$id.xml"; do
    grep -q " $file\$" <<<"$contents" || fail "$id.0.1.0.nupkg has no $file"
  done
  nuspec=$(unzip -p "$feed/$id.0.1.0.nupkg" "$id.nuspec")
  for element in '<license type="expression">MIT</license>' '<readme>README.md</readme>' '<description>' '<tags>' '<repository type="git"'; do
    grep -qF "$element" <<<"$nuspec" || fail "$id.nuspec has no $element"
  done
  grep -q " lib/net10.0/$id.pdb\$" <<<"$(unzip -l "$feed/$id.0.1.0.snupkg")" || fail "$id.0.1.0.snupkg has no $id.pdb"
done
# No package uses another's internals (docs/packages.md), so each depends on the one below it at this version or later,
# not at exactly this version. Listings are read whole before grep: with pipefail, grep -q ending a pipe early would
# fail the check by unzip's SIGPIPE.
for id in ProtoHttp.AspNetCore ProtoHttp.Client; do
  grep -qF '<dependency id="ProtoHttp" version="0.1.0"' <<<"$(unzip -p "$feed/$id.0.1.0.nupkg" "$id.nuspec")" \
    || fail "$id does not depend on ProtoHttp 0.1.0 or later"
done
for id in ProtoHttp.AspNetCore.OpenApi ProtoHttp.AspNetCore.Redis ProtoHttp.AspNetCore.Nats; do
  grep -qF '<dependency id="ProtoHttp.AspNetCore" version="0.1.0"' <<<"$(unzip -p "$feed/$id.0.1.0.nupkg" "$id.nuspec")" \
    || fail "$id does not depend on ProtoHttp.AspNetCore 0.1.0 or later"
done
# No package makes its internals visible to another: the InternalsVisibleTo left name test and benchmark assemblies,
# which are never packed. An attribute with one string argument is stored as 01 00, the string's length, its UTF-8 bytes
# and 00 00; that is what is looked for.
for id in ProtoHttp ProtoHttp.AspNetCore ProtoHttp.AspNetCore.OpenApi ProtoHttp.AspNetCore.Redis ProtoHttp.AspNetCore.Nats ProtoHttp.Client; do
  unzip -p "$feed/$id.0.1.0.nupkg" "lib/net10.0/$id.dll" >"$work/$id.dll"
done
python3 - "$work" <<'PY' || fail "a package makes its internals visible to another package"
import sys
packages = ["ProtoHttp", "ProtoHttp.AspNetCore", "ProtoHttp.AspNetCore.OpenApi", "ProtoHttp.AspNetCore.Redis", "ProtoHttp.AspNetCore.Nats", "ProtoHttp.Client"]
for id in packages:
    data = open(f"{sys.argv[1]}/{id}.dll", "rb").read()
    for friend in packages:
        if friend != id and b"\x01\x00" + bytes([len(friend)]) + friend.encode() + b"\x00\x00" in data:
            sys.exit(f"{id} has InternalsVisibleTo({friend})")
PY
# An app that gets Microsoft.AspNetCore.OpenApi through it compiles only with the interceptors its targets enable.
grep -q " buildTransitive/ProtoHttp.AspNetCore.OpenApi.targets\$" <<<"$(unzip -l "$feed/ProtoHttp.AspNetCore.OpenApi.0.1.0.nupkg")" \
  || fail "ProtoHttp.AspNetCore.OpenApi.0.1.0.nupkg has no buildTransitive/ProtoHttp.AspNetCore.OpenApi.targets"
# The README's nuget.config put the packages in the folder's own packages folder, not the user-wide one.
[ -d "$work/consumer/packages/protohttp.aspnetcore/0.1.0" ] || fail "ProtoHttp.AspNetCore was not restored into the folder's own packages folder"
