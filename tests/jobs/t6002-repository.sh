# t6002-repository — kernel repositories against a real HTTP server (nginx
# on 127.0.0.1): a validated kernel is published into a site tree, listed,
# searched and pulled over http:// and file://; a wrong checksum, a file
# name that would leave the folder, a missing kernel and a server that is
# down are clear errors that leave nothing behind; a push to a central
# repository needs the credentials of its netrc file.  A push with
# --anonymize (the site's key) sends a kernel fit to leave the site: no
# name of the job's files, nor the kernel's name, nor its job log's name
# is in any byte of what lands; each file name is the token that `ioatlas
# export --anonymize` gives it under the same key; the kernel pulls back
# with its checksums verified and builds; the published kernel is left as
# it was; without a key it is refused.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
nginx=$(command -v nginx || true)
[ -n "$nginx" ] || skip_all "no nginx (Debian's nginx package)"

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
gt="$IOA_BUILD_DIR/tests/jobs/ground-truth"
export IOATLAS_CONF=/dev/null
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")
chmod 711 "$TEST_TMP"

# A job and its kernel, published into the site tree.
logs=$(ioa_logdir)
mkdir -p "$TEST_TMP/data"
ioa_mpi_preload "$logs" 4 120 "$gt" fpp "$TEST_TMP/data" >/dev/null
log=$(ioa_only_log "$logs")
"$kernel" gen "$log" -o "$TEST_TMP/k" >/dev/null
repo="$TEST_TMP/repo"
ok "a validated kernel is published" \
	run_timeout 300 "$kernel" publish "$TEST_TMP/k" "$log" --repo "$repo" --name fpp --runtime "$runtime"
for f in index.json kernels/fpp/1/kernel.c kernels/fpp/1/Makefile kernels/fpp/1/meta.json \
	kernels/fpp/1/SHA256SUMS; do
	ok "the tree holds $f" test -s "$repo/$f"
done
ok "its checksums are sha256sum's" sh -c "cd '$repo/kernels/fpp/1' && sha256sum -c --quiet SHA256SUMS"
like "$(cat "$repo/kernels/fpp/1/meta.json")" '"identical":true' "meta.json says it was validated"
like "$(cat "$repo/kernels/fpp/1/meta.json")" '"ranks":4' "and for how many ranks"
fails "the same version twice is refused" \
	"$kernel" publish "$TEST_TMP/k" "$log" --repo "$repo" --name fpp --runtime "$runtime"
fails "a name that is a path is refused" \
	"$kernel" publish "$TEST_TMP/k" "$log" --repo "$repo" --name ../x --runtime "$runtime"

# Trees served by nginx: the site tree, a damaged copy, a hostile one, and a central one.
cp -a "$repo" "$TEST_TMP/bad"
# (of the same size: a longer file is refused before its checksum, t6005)
printf '/* tampered */' | dd of="$TEST_TMP/bad/kernels/fpp/1/kernel.c" conv=notrunc status=none
cp -a "$repo" "$TEST_TMP/evil"
sed -i 's/"name":"kernel.c"/"name":"..\/..\/..\/evil"/' "$TEST_TMP/evil/kernels/fpp/1/meta.json"
mkdir -p "$TEST_TMP/central" "$TEST_TMP/nginx"
chown nobody "$TEST_TMP/central" "$TEST_TMP/nginx"
printf 'uploader:{PLAIN}s3cret\n' >"$TEST_TMP/nginx/htpasswd"
chmod 644 "$TEST_TMP/nginx/htpasswd"
port=
for p in $(shuf -i 20000-60000 -n 50); do
	if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
		port=$p
		break
	fi
done
cat >"$TEST_TMP/nginx/nginx.conf" <<EOF
user nobody nogroup;
worker_processes 1;
pid $TEST_TMP/nginx/nginx.pid;
error_log $TEST_TMP/nginx/error.log;
events { worker_connections 64; }
http {
	access_log $TEST_TMP/nginx/access.log;
	client_body_temp_path $TEST_TMP/nginx/body;
	proxy_temp_path $TEST_TMP/nginx/proxy;
	fastcgi_temp_path $TEST_TMP/nginx/fastcgi;
	uwsgi_temp_path $TEST_TMP/nginx/uwsgi;
	scgi_temp_path $TEST_TMP/nginx/scgi;
	server {
		listen 127.0.0.1:$port;
		location /site/ { alias $repo/; }
		location /bad/ { alias $TEST_TMP/bad/; }
		location /evil/ { alias $TEST_TMP/evil/; }
		location /central/ {
			alias $TEST_TMP/central/;
			dav_methods PUT;
			create_full_put_path on;
			limit_except GET { auth_basic "kernels"; auth_basic_user_file $TEST_TMP/nginx/htpasswd; }
		}
	}
}
EOF
ok "nginx starts on 127.0.0.1:$port" "$nginx" -p "$TEST_TMP/nginx" -c "$TEST_TMP/nginx/nginx.conf"
at_exit "kill \$(cat '$TEST_TMP/nginx/nginx.pid' 2>/dev/null) 2>/dev/null"
for i in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port"

ok "list over http" "$kernel" list --from "$url/site/"
like "$(cat "$TEST_TMP/last.out")" "^fpp@1	4 ranks" "shows the kernel"
ok "search" "$kernel" search fp --from "$url/site/"
like "$(cat "$TEST_TMP/last.out")" "^fpp@1" "finds it by name"
ok "pull over http" "$kernel" pull fpp --from "$url/site/" -o "$TEST_TMP/pulled"
ok "the pulled kernel is the published one" cmp "$TEST_TMP/pulled/kernel.c" "$repo/kernels/fpp/1/kernel.c"
ok "pull over file://" "$kernel" pull fpp@1 --from "file://$repo" -o "$TEST_TMP/pulled-file"
ok "the same" cmp "$TEST_TMP/pulled-file/Makefile" "$repo/kernels/fpp/1/Makefile"

fails "a wrong checksum" "$kernel" pull fpp --from "$url/bad/" -o "$TEST_TMP/p-bad"
like "$(cat "$TEST_TMP/last.out")" "kernel.c: checksum mismatch" "is said"
is "$(ls -d "$TEST_TMP"/p-bad* 2>/dev/null)" "" "and leaves no half kernel"
fails "a file name leaving the folder" "$kernel" pull fpp --from "$url/evil/" -o "$TEST_TMP/p-evil"
like "$(cat "$TEST_TMP/last.out")" "refused: the file name '../../../evil'" "is refused"
is "$(ls -d "$TEST_TMP"/p-evil* "$TEST_TMP/evil.c" 2>/dev/null)" "" "and writes nothing"
fails "a kernel the repository lacks" "$kernel" pull nope --from "$url/site/" -o "$TEST_TMP/p-nope"
like "$(cat "$TEST_TMP/last.out")" "no kernel nope in $url/site/" "is said"
fails "a server that is down" "$kernel" list --from "http://127.0.0.1:1/"
like "$(cat "$TEST_TMP/last.out")" "127.0.0.1:1/index.json: (Couldn't connect|Could not connect)" "is said"

# Central repository: PUT with netrc credentials.
printf 'machine 127.0.0.1 login uploader password s3cret\n' >"$TEST_TMP/netrc"
chmod 600 "$TEST_TMP/netrc"
fails "a push without credentials" "$kernel" push "$repo/kernels/fpp/1" --to "$url/central/" \
	--netrc /dev/null
like "$(cat "$TEST_TMP/last.out")" "401" "is refused by the server"
ok "a push with the netrc's credentials" \
	"$kernel" push "$repo/kernels/fpp/1" --to "$url/central/" --netrc "$TEST_TMP/netrc"
ok "lands in the central tree" test -s "$TEST_TMP/central/kernels/fpp/1/kernel.c"
ok "which lists it" "$kernel" list --from "$url/central/"
like "$(cat "$TEST_TMP/last.out")" "^fpp@1" "as fpp@1"
ok "and gives it back" "$kernel" pull fpp --from "$url/central/" -o "$TEST_TMP/from-central"
ok "a push into a file:// tree" "$kernel" push "$repo/kernels/fpp/1" --to "file://$TEST_TMP/local"
ok "lists it too" "$kernel" list --from "file://$TEST_TMP/local"

# An anonymized push of a kernel that keeps the job's file names.
"$kernel" gen "$log" -o "$TEST_TMP/kn" --keep-names >/dev/null
ok "a kernel with the job's file names is published" \
	run_timeout 300 "$kernel" publish "$TEST_TMP/kn" "$log" --repo "$repo" --name fpp-names --runtime "$runtime"
head -c 32 /dev/urandom >"$TEST_TMP/site.key"
chmod 600 "$TEST_TMP/site.key"
fails "--anonymize without a key is refused" \
	"$kernel" push "$repo/kernels/fpp-names/1" --to "file://$TEST_TMP/outside" --anonymize
ok "an anonymized push" "$kernel" push "$repo/kernels/fpp-names/1" --to "file://$TEST_TMP/outside" \
	--anonymize --key-file "$TEST_TMP/site.key"
names=$("$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-parse" "$log" | awk -F '\t' '$1 == "POSIX" { n = split($6, p, "/"); print p[n] }' | sort -u)
is "$(sed -n '/names\[NFILES + 1\]/,/unused/p' "$repo/kernels/fpp-names/1/kernel.c" | grep -cF "$(echo "$names" | head -n 1)")" 1 \
	"the published kernel names the job's files ($(echo "$names" | wc -l) of them)"
leaks=$(for w in $names fpp-names "$(basename "$log")"; do grep -rlF -- "$w" "$TEST_TMP/outside" >/dev/null && echo "$w"; done)
is "$leaks" "" "no file name, kernel name or job log name of the site in what landed"
ok "it lists under a token" sh -c "'$kernel' list --from 'file://$TEST_TMP/outside' | grep -q '^t[0-9a-f]\{16\}@1'"
token=$("$kernel" list --from "file://$TEST_TMP/outside" | sed -n 's/^\(t[0-9a-f]\{16\}\)@1.*/\1/p')
ok "it pulls back, checksums verified" "$kernel" pull "$token" --from "file://$TEST_TMP/outside" -o "$TEST_TMP/anon-k"
ok "and builds" sh -c "cd '$TEST_TMP/anon-k' && make -s MPICC=mpicc.mpich >/dev/null"
"$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-export" --darshan --anonymize --key-file "$TEST_TMP/site.key" \
	-o "$TEST_TMP/anon.darshan" "$log"
exported=$("$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-parse" "$TEST_TMP/anon.darshan" |
	awk -F '\t' '$1 == "POSIX" { n = split($6, p, "/"); print p[n] }' | sort -u)
kernel_names=$(sed -n '/names\[NFILES + 1\]/,/unused/p' "$TEST_TMP/anon-k/kernel.c" | grep -o '"t[0-9a-f]\{16\}"' | tr -d '"' | sort -u)
is "$(comm -23 <(echo "$kernel_names") <(echo "$exported"))" "" \
	"its $(echo "$kernel_names" | wc -l) file names are the tokens an anonymized export gives them"
ok "the published kernel is left as it was" sh -c "cd '$repo/kernels/fpp-names/1' && sha256sum -c --quiet SHA256SUMS"
done_testing
