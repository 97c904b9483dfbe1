; Supertypes. Go has no `implements`: a type satisfies an interface without saying so, and no
; edge is invented for it. Embedding is the only declared relation: an embedded struct field
; (`Base`, `*pkg.Base`) or an embedded interface (`io.Reader`) promotes the embedded type's methods.

(type_spec
  type: (struct_type
    (field_declaration_list
      (field_declaration
        !name
        type: [(type_identifier) (qualified_type) (generic_type)] @extends))))

(type_spec
  type: (interface_type
    (type_elem . [(type_identifier) (qualified_type) (generic_type)] @extends .)))
