/**
 * Three small projects that reference each other the way a WordPress plugin, an add-on and a
 * TypeScript client do: the add-on hooks into the plugin's hooks, the client calls its REST route.
 */
export const CORE = {
  'includes/init.php': `<?php
function pum_init() {
    do_action( 'pum_init' );
    $type = 'popup';
    do_action( "pum_{$type}_loaded", $type );
    return apply_filters( 'pum_popup_settings', array() );
}
function pum_get_popup( $id ) {
    return pum_init();
}
class PUM_REST {
    public function register_routes() {
        register_rest_route( 'pum/v1', '/popups/(?P<id>\\d+)', array( 'methods' => 'GET', 'callback' => array( $this, 'get_popup' ) ) );
    }
}
`,
};
export const ADDON = {
  'addon.php': `<?php
function pum_addon_setup() {
    add_action( 'pum_init', 'pum_addon_boot' );
    add_filter( 'pum_popup_settings', 'pum_addon_settings' );
    add_action( 'pum_popup_loaded', 'pum_addon_loaded' );
}
function pum_addon_boot() { pum_addon_setup(); }
function pum_addon_settings( $s ) { return $s; }
`,
};
export const CLIENT = {
  'src/api.ts': `export async function loadPopup(id: number) {
  const res = await fetch(\`/wp-json/pum/v1/popups/\${id}\`);
  return res.json();
}
export function unrelated() { return fetch('/static/logo.png'); }
`,
};

